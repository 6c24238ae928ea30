//go:build !(linux && (amd64 || arm64 || riscv64 || loong64 || 386 || arm || ppc64 || ppc64le || s390x))

package atomicfile

import (
	"errors"
	"os"
)

var errNoAnon = errors.New("unnamed temporary files are not supported here")

// openAnon fails: unnamed temporary files are Linux's (see anon_linux.go).
func openAnon(string) (*os.File, error) { return nil, errNoAnon }

// linkAnon is never called where openAnon fails.
func linkAnon(*os.File, string) error { return errNoAnon }
