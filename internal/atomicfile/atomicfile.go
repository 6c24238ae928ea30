// Package atomicfile implements writing a file so that readers see either
// its old content or the complete new content, never a partial write.
// On Linux the new content is written to an unnamed file (O_TMPFILE) that
// gets a name only to be renamed over the path, so that a process killed
// while writing leaves nothing behind.
package atomicfile

import (
	"bufio"
	"io"
	"os"
)

// WriteFile calls write with a buffered writer and stores what it writes in
// the file path. The data go to a temporary file in the same directory,
// which is flushed, synced to disk, closed and then renamed over path, so
// path holds either its old content or all of the new. If write or any step
// fails, the temporary file is removed, path is left untouched and the
// first error is returned. A new file gets mode 0644 (os.CreateTemp would
// leave 0600, and reading the umask is racy); an existing file keeps its
// permission bits.
//
// The path "-" means standard output: write's output goes to os.Stdout
// directly, with no atomicity.
func WriteFile(path string, write func(io.Writer) error) error {
	if path == "-" {
		bw := bufio.NewWriter(os.Stdout)
		if err := write(bw); err != nil {
			return err
		}
		return bw.Flush()
	}
	s, err := Stage(path, write)
	if err != nil {
		return err
	}
	return s.Commit()
}
