package atomicfile

import (
	"io"
	"os"
)

// Staged is a complete new content of a file, written by [Stage] to a
// temporary file beside it and not yet renamed into place. It lets a program
// that writes several outputs change none of them unless all could be
// written.
type Staged struct {
	tmp, path string
	done      bool
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
	os.Remove(s.tmp)
	untrack(s.tmp)
}
