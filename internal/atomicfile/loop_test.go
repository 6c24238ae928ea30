package atomicfile

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// TestLoop: a loop of symbolic links is ELOOP, and the links stay as they
// were (a rename replaced one of them by a regular file).
func TestLoop(t *testing.T) {
	dir := t.TempDir()
	la, lb := filepath.Join(dir, "la"), filepath.Join(dir, "lb")
	if err := os.Symlink("lb", la); err != nil {
		t.Skip(err)
	}
	if err := os.Symlink("la", lb); err != nil {
		t.Fatal(err)
	}
	_, err := Create(la)
	if !errors.Is(err, syscall.ELOOP) {
		t.Fatalf("error %v, want ELOOP", err)
	}
	for _, l := range []string{la, lb} {
		if fi, err := os.Lstat(l); err != nil || fi.Mode()&os.ModeSymlink == 0 {
			t.Errorf("%s is no longer a link", l)
		}
	}
}
