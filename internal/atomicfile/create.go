package atomicfile

import (
	"bufio"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
)

// live holds the temporary files not yet renamed or removed, for
// RemoveTemporary.
var live struct {
	sync.Mutex
	names   map[string]struct{}
	stopped bool // RemoveTemporary was called
}

// errStopped is the error of a commit after RemoveTemporary.
var errStopped = errors.New("atomicfile: temporary files removed before the commit")

// isStopped reports whether RemoveTemporary has been called.
func isStopped() bool {
	live.Lock()
	defer live.Unlock()
	return live.stopped
}

func track(name string) {
	live.Lock()
	if live.names == nil {
		live.names = map[string]struct{}{}
	}
	live.names[name] = struct{}{}
	live.Unlock()
}

func untrack(name string) {
	live.Lock()
	delete(live.names, name)
	live.Unlock()
}

// RemoveTemporary removes every named temporary file of this process that
// has not been renamed over its path or removed yet, leaving those paths
// untouched (unnamed ones vanish with the process), and makes every later
// Commit fail. A program calls it just before exiting without returning,
// such as on a signal, so that no temporary file outlives it.
func RemoveTemporary() {
	live.Lock()
	defer live.Unlock()
	live.stopped = true
	for name := range live.names {
		os.Remove(name)
	}
	live.names = nil
}

// File is a file written piece by piece, for output too large to build in
// memory, that appears at its path only when complete: the data go to a
// hidden temporary file beside it, as for [WriteFile], which [File.Commit]
// renames over the path. A File is not safe for concurrent use.
type File struct {
	f         *os.File
	bw        *bufio.Writer
	tmp, path string
	mode      os.FileMode
	done      bool
	direct    bool // path is not a regular file and is written in place
	anon      bool // f has no name yet (openAnon); tmp is ""
}

// useAnon makes Create use unnamed temporary files where the system has
// them; the tests of the named ones turn it off.
var useAnon = true

// Create starts a new content of the file path in a temporary file named
// "." + base + ".tmp" + digits in the directory of path, where base is the
// last element of path. The permission bits are those [WriteFile] gives.
// Create does not accept "-".
//
// On Linux the temporary file is first unnamed (O_TMPFILE), so that a
// process that dies before committing, even by SIGKILL, leaves nothing
// behind: Commit gives it the hidden name only to rename it at once.
// Elsewhere, or where the file system lacks O_TMPFILE, it is named from the
// start, and a killed process may leave it.
//
// An existing path that is neither a regular file nor a directory, such as
// /dev/null, /dev/stdout or a named pipe, cannot be replaced by a rename:
// Create opens it for writing instead, and the data go to it as they are
// written, with no atomicity (a reader of a pipe sees them anyway).
func Create(path string) (*File, error) {
	if fdLink(path) {
		// A file descriptor (/dev/stdout, /dev/fd/N, /proc/self/fd/N):
		// replacing the link would replace /dev/stdout itself. Append to
		// what it opens, which never truncates a file behind it.
		f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
		if err != nil {
			return nil, err
		}
		return &File{f: f, bw: bufio.NewWriter(f), path: path, direct: true}, nil
	}
	// A symbolic link stays one: its target gets the new content. A loop
	// of links is an error (ELOOP, "too many levels of symbolic links")
	// that leaves the links as they are.
	path, err := resolve(path)
	if err != nil {
		return nil, err
	}
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	mode := os.FileMode(0o644)
	if fi, err := os.Stat(path); err == nil {
		switch {
		case fi.IsDir():
			return nil, &os.PathError{Op: "write", Path: path, Err: errors.New("is a directory")}
		case !fi.Mode().IsRegular():
			f, err := os.OpenFile(path, os.O_WRONLY, 0)
			if err != nil {
				return nil, err
			}
			return &File{f: f, bw: bufio.NewWriter(f), path: path, direct: true}, nil
		}
		mode = fi.Mode().Perm()
	}
	if useAnon {
		if f, err := openAnon(dir); err == nil {
			return &File{f: f, bw: bufio.NewWriter(f), path: path, mode: mode, anon: true}, nil
		}
	}
	f, err := os.CreateTemp(dir, "."+base+".tmp*")
	if err != nil {
		return nil, err
	}
	track(f.Name())
	return &File{f: f, bw: bufio.NewWriter(f), tmp: f.Name(), path: path, mode: mode}, nil
}

// fdLink reports whether path is, or is a symbolic link to, a file
// descriptor of the process: under /proc or /dev/fd.
func fdLink(path string) bool {
	fi, err := os.Lstat(path)
	if err != nil || fi.Mode()&os.ModeSymlink == 0 {
		return false
	}
	under := func(p string) bool {
		p = filepath.Clean(p)
		return strings.HasPrefix(p, "/proc/") || strings.HasPrefix(p, "/dev/fd/")
	}
	if under(path) {
		return true
	}
	t, err := os.Readlink(path)
	return err == nil && under(t)
}

// resolve returns the file that writing path writes: path with its
// symbolic links resolved, also a last one whose target does not exist
// yet, or path itself if it is not a link; an error wrapping syscall.ELOOP
// for a loop of links (or a chain longer than maxLinks).
func resolve(path string) (string, error) {
	fi, err := os.Lstat(path)
	if err != nil || fi.Mode()&os.ModeSymlink == 0 {
		return path, nil
	}
	if r, err := filepath.EvalSymlinks(path); err == nil {
		return r, nil
	}
	start := path
	for range maxLinks { // a dangling chain: follow it to its end
		t, err := os.Readlink(path)
		if err != nil {
			return path, nil
		}
		if !filepath.IsAbs(t) {
			t = filepath.Join(filepath.Dir(path), t)
		}
		path = t
	}
	if fi, err := os.Lstat(path); err == nil && fi.Mode()&os.ModeSymlink != 0 {
		// Renaming over path would replace a link of the loop.
		return "", &os.PathError{Op: "write", Path: start, Err: syscall.ELOOP}
	}
	return path, nil
}

// maxLinks is the longest chain of symbolic links resolve follows, as
// Linux's limit of 40 for a path.
const maxLinks = 40

// Write writes p to the temporary file, through a buffer. It implements
// io.Writer. After an error, every later Write and Commit return it: the
// bufio.Writer keeps its first error and returns it from every later Write
// and Flush.
func (f *File) Write(p []byte) (int, error) {
	if f.done {
		return 0, os.ErrClosed
	}
	return f.bw.Write(p)
}

// Stage completes the temporary file, flushed, synced and closed, and hands
// it over as a [Staged] file, whose Commit renames it over the path, so
// that it can change together with other staged outputs. On an error the
// temporary file is removed. After Stage, the File's Commit and Abort do
// nothing.
func (f *File) Stage() (*Staged, error) {
	if f.done {
		return nil, os.ErrClosed
	}
	f.done = true
	err := f.bw.Flush() // the first error of Write, if any
	if f.direct {
		if cerr := f.f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return nil, err
		}
		return &Staged{path: f.path, done: true}, nil // nothing left to rename
	}
	if err == nil {
		err = f.f.Chmod(f.mode)
	}
	if err == nil {
		err = f.f.Sync()
	}
	if f.anon {
		// It stays open: closing an unnamed file deletes it.
		if err != nil {
			f.f.Close()
			return nil, err
		}
		return &Staged{path: f.path, anon: f.f}, nil
	}
	if cerr := f.f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(f.tmp)
		untrack(f.tmp)
		return nil, err
	}
	return &Staged{tmp: f.tmp, path: f.path}, nil
}

// Commit completes the temporary file as Stage does and renames it over the
// path. On an error the path is left untouched and the temporary file is
// removed. After the first call, Commit and Abort do nothing.
func (f *File) Commit() error {
	if f.done {
		return nil
	}
	s, err := f.Stage()
	if err != nil {
		return err
	}
	return s.Commit()
}

// Abort removes the temporary file, leaving the path untouched. After the
// first call, Commit and Abort do nothing.
func (f *File) Abort() {
	if f.done {
		return
	}
	f.done = true
	f.f.Close()
	if !f.direct && !f.anon {
		os.Remove(f.tmp)
		untrack(f.tmp)
	}
}
