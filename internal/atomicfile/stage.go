package atomicfile

import (
	"errors"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
)

// Staged is a complete new content of a file, written by [Stage] to a
// temporary file beside it and not yet renamed into place. It lets a program
// that writes several outputs change none of them unless all could be
// written.
type Staged struct {
	tmp, path string
	done      bool
	anon      *os.File // the unnamed file, open, if tmp is ""
}

// Stage does what [WriteFile] does except the final rename: it calls write
// with a buffered writer and stores what it writes, flushed, synced and
// closed, in a temporary file named "." + base + ".tmp" + digits in the
// directory of path, where base is the last element of path. [Staged.Commit]
// renames it over path; [Staged.Abort] removes it. If write or any step
// fails, the temporary file is removed, path is untouched and the first
// error is returned. Stage does not accept "-".
func Stage(path string, write func(io.Writer) error) (*Staged, error) {
	f, err := Create(path)
	if err != nil {
		return nil, err
	}
	if err := write(f); err != nil {
		f.Abort()
		return nil, err
	}
	return f.Stage()
}

// Commit renames the staged file over its path. After the first call, Commit
// and Abort do nothing.
func (s *Staged) Commit() error {
	if s.done {
		return nil
	}
	s.done = true
	if isStopped() {
		s.done = false
		s.Abort()
		return errStopped
	}
	if s.anon != nil {
		defer s.anon.Close()
		tmp, err := s.link()
		if err != nil {
			return err
		}
		s.tmp = tmp
	}
	defer untrack(s.tmp)
	if err := os.Rename(s.tmp, s.path); err != nil {
		os.Remove(s.tmp)
		return err
	}
	return nil
}

// Abort removes the staged file, leaving path untouched. After the first
// call, Commit and Abort do nothing.
func (s *Staged) Abort() {
	if s.done {
		return
	}
	s.done = true
	if s.anon != nil {
		s.anon.Close() // which deletes it
		return
	}
	os.Remove(s.tmp)
	untrack(s.tmp)
}

// link gives the unnamed staged file the hidden temporary name beside its
// path ("." + base + ".tmp" + digits, as os.CreateTemp makes them) and
// returns it; it is renamed over the path at once.
func (s *Staged) link() (string, error) {
	dir, base := filepath.Split(s.path)
	if dir == "" {
		dir = "."
	}
	for try := 0; ; try++ {
		tmp := filepath.Join(dir, "."+base+".tmp"+strconv.FormatUint(uint64(rand.Uint32()), 10))
		track(tmp)
		err := linkAnon(s.anon, tmp)
		if err == nil {
			return tmp, nil
		}
		untrack(tmp)
		if !errors.Is(err, fs.ErrExist) || try == 100 {
			return "", err
		}
	}
}
