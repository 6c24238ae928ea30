//go:build linux && (amd64 || arm64 || riscv64 || loong64 || 386 || arm || ppc64 || ppc64le || s390x)

package atomicfile

import (
	"os"
	"path/filepath"
	"strconv"
	"syscall"
	"unsafe"
)

// Linux's O_TMPFILE (__O_TMPFILE | O_DIRECTORY; __O_TMPFILE is 020000000 on
// the architectures above) and AT_* values, which package syscall does not
// define.
const (
	oTmpfile        = 0o20000000 | syscall.O_DIRECTORY
	atFDCWD         = -100
	atSymlinkFollow = 0x400
)

// openAnon opens an unnamed regular file in dir (open(2) with O_TMPFILE):
// it has no name until linkAnon gives it one, so that if the process dies
// first, by whatever means, the kernel frees it and nothing is left
// behind. It fails where the kernel or the file system lacks O_TMPFILE, or
// where /proc/self/fd, through which linkAnon names the file, is missing;
// the caller then uses a named temporary file.
func openAnon(dir string) (*os.File, error) {
	fd, err := syscall.Open(dir, oTmpfile|syscall.O_WRONLY|syscall.O_CLOEXEC, 0o600)
	if err != nil {
		return nil, &os.PathError{Op: "open", Path: dir, Err: err}
	}
	f := os.NewFile(uintptr(fd), filepath.Join(dir, "(unnamed)"))
	if _, err := os.Stat(procPath(f)); err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// procPath returns the /proc/self/fd link of f.
func procPath(f *os.File) string { return "/proc/self/fd/" + strconv.Itoa(int(f.Fd())) }

// linkAnon gives the unnamed file f the name path, which must not exist:
// linkat(2) with AT_SYMLINK_FOLLOW of f's /proc/self/fd link, which needs no
// privilege, unlike linkat with AT_EMPTY_PATH.
func linkAnon(f *os.File, path string) error {
	from, err := syscall.BytePtrFromString(procPath(f))
	if err != nil {
		return err
	}
	to, err := syscall.BytePtrFromString(path)
	if err != nil {
		return err
	}
	fd := atFDCWD
	_, _, errno := syscall.Syscall6(syscall.SYS_LINKAT, uintptr(fd), uintptr(unsafe.Pointer(from)),
		uintptr(fd), uintptr(unsafe.Pointer(to)), atSymlinkFollow, 0)
	if errno != 0 {
		return &os.LinkError{Op: "link", Old: procPath(f), New: path, Err: errno}
	}
	return nil
}
