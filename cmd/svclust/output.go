package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"

	"github.com/svclust/svclust/internal/atomicfile"
)

// An output is one file a command writes: the flag that names it, its path
// ("-" for standard output) and the function that writes its content.
type output struct {
	flag  string
	path  string
	write func(io.Writer) error
}

// writeOutputs writes outs so that either all of them or none of the files
// change: every file is first written in full to a temporary file beside
// it (atomicfile: unnamed on Linux, else hidden, ".NAME.tmp" and digits),
// then standard output is written, and
// only then are the temporary files renamed over their paths. Only a failed
// rename, which does not happen on a local file system once the temporary
// file exists, could leave some outputs new and others old.
func (e *env) writeOutputs(outs ...output) error {
	return e.writeOutputsAfter(nil, outs...)
}

// A stagedOutput is a file output written, by the command as it went, to
// a temporary file that is staged and waits to be renamed over its path.
type stagedOutput struct {
	flag, path string
	staged     *atomicfile.Staged
}

// writeOutputsAfter is writeOutputs for a command that has also staged the
// files pre: they are renamed first, after every output of outs is
// written, and removed if writing any of outs fails.
func (e *env) writeOutputsAfter(pre []stagedOutput, outs ...output) error {
	files := pre
	defer func() {
		for _, f := range files {
			f.staged.Abort() // no-op once committed
		}
	}()
	for _, o := range outs {
		if o.path == "-" {
			continue
		}
		s, err := atomicfile.Stage(o.path, o.write)
		if err != nil {
			return outputError(o.flag, o.path, err)
		}
		files = append(files, stagedOutput{o.flag, o.path, s})
	}
	for _, o := range outs {
		if o.path == "-" {
			if err := o.write(e.stdout); err != nil {
				return err
			}
		}
	}
	// A stop signal during the writing keeps every file old.
	if e.ctx != nil && e.ctx.Err() != nil {
		return e.ctx.Err()
	}
	for _, f := range files {
		if err := f.staged.Commit(); err != nil {
			return outputError(f.flag, f.path, err)
		}
	}
	return nil
}

// writeRows is the number of rows writeColumns appends before it writes
// them, so that the text of a million rows is never held whole (22 MB for
// two columns).
const writeRows = 1 << 14

// writeColumns writes header, then n rows, row i appended by value, in
// chunks of writeRows rows; at each data row of dropped (increasing; see
// dataset.Dataset.Dropped) it writes empty instead, so that line i+2 of
// the output is data row i whatever -na drop skipped: "" for one column,
// "," for two, which read back as missing values.
func writeColumns(w io.Writer, header string, n int, dropped []int, empty string, value func([]byte, int) []byte) error {
	buf := []byte(header)
	k := 0 // the next value
	for row := 0; k < n || len(dropped) > 0; row++ {
		if len(dropped) > 0 && dropped[0] == row {
			dropped = dropped[1:]
			buf = append(buf, empty...)
		} else {
			buf = value(buf, k)
			k++
		}
		buf = append(buf, '\n')
		if (row+1)%writeRows == 0 {
			if _, err := w.Write(buf); err != nil {
				return err
			}
			buf = buf[:0]
		}
	}
	_, err := w.Write(buf)
	return err
}

// writeLabels writes labels as CSV with the header "cluster" and, unless
// scores is nil, the outlier scores beside them in the column "outlier";
// empty fields at the data rows of dropped (skipped by -na drop).
func writeLabels(w io.Writer, labels []int, scores []float64, dropped []int) error {
	if scores == nil {
		return writeColumns(w, "cluster\n", len(labels), dropped, "", func(buf []byte, i int) []byte {
			return strconv.AppendInt(buf, int64(labels[i]), 10)
		})
	}
	return writeColumns(w, "cluster,outlier\n", len(labels), dropped, ",", func(buf []byte, i int) []byte {
		buf = appendColumns(buf, labels[i:i+1], scores[i:i+1])
		return buf[:len(buf)-1] // writeColumns ends the line
	})
}

// appendColumns appends the rows "label,score" to buf, the label in
// decimal and the score in the shortest form that reads back exactly: fit
// -o and predict with the outlier scores.
func appendColumns(buf []byte, labels []int, scores []float64) []byte {
	for i, x := range labels {
		buf = strconv.AppendInt(buf, int64(x), 10)
		buf = append(buf, ',')
		buf = strconv.AppendFloat(buf, scores[i], 'g', -1, 64)
		buf = append(buf, '\n')
	}
	return buf
}

// writeScores writes f as CSV with the header "score" and, unless outlier
// is nil, the outlier scores beside them in the column "outlier", each in
// the shortest form that reads back exactly; empty fields at the data rows
// of dropped.
func writeScores(w io.Writer, f, outlier []float64, dropped []int) error {
	if outlier == nil {
		return writeColumns(w, "score\n", len(f), dropped, "", func(buf []byte, i int) []byte {
			return strconv.AppendFloat(buf, f[i], 'g', -1, 64)
		})
	}
	return writeColumns(w, "score,outlier\n", len(f), dropped, ",", func(buf []byte, i int) []byte {
		buf = strconv.AppendFloat(buf, f[i], 'g', -1, 64)
		buf = append(buf, ',')
		return strconv.AppendFloat(buf, outlier[i], 'g', -1, 64)
	})
}

// A namedPath is a file of the command line with the flag that names it
// ("DATA" for the data argument).
type namedPath struct{ flag, path string }

// checkPaths checks the files a command reads (ins) and writes (outs)
// before it starts: an output that is also an input or another output,
// compared as files (see samePath), is a usage error naming both flags,
// since one output would replace the other or the data it came from; two
// outputs to standard output are one too. Then each output is checked
// with checkOutput. Empty paths are left out, and "-" is compared only
// with "-".
func checkPaths(ins, outs []namedPath) error {
	var stdout string
	for i, o := range outs {
		switch o.path {
		case "":
			continue
		case "-":
			if stdout != "" {
				return usagef("%s and %s both write to standard output", stdout, o.flag)
			}
			stdout = o.flag
			continue
		}
		for _, in := range ins {
			if in.path != "" && in.path != "-" && samePath(o.path, in.path) {
				return usagef("%s %s is the same file as %s %s: write the output elsewhere", o.flag, o.path, in.flag, in.path)
			}
			if in.path == "-" && isStdin(o.path) {
				return usagef("%s %s is the file standard input reads (%s -): write the output elsewhere", o.flag, o.path, in.flag)
			}
		}
		if fi, err := os.Stat(o.path); err == nil && fi.Mode()&os.ModeCharDevice != 0 {
			continue // such as /dev/null, which two outputs may share
		}
		for _, p := range outs[:i] {
			if p.path != "" && p.path != "-" && samePath(o.path, p.path) {
				return usagef("%s %s and %s %s name the same file", p.flag, p.path, o.flag, o.path)
			}
		}
	}
	for _, o := range outs {
		if err := checkOutput(o.flag, o.path); err != nil {
			return err
		}
	}
	return nil
}

// isStdin reports whether path names the file that standard input reads
// (/dev/stdin, /proc/self/fd/0, or the file itself when input is
// redirected from it), which writing would change under the reader.
func isStdin(path string) bool {
	in, err := os.Stdin.Stat()
	if err != nil || in.Mode()&os.ModeCharDevice != 0 {
		return false // a terminal: nothing to lose
	}
	fi, err := os.Stat(path)
	return err == nil && os.SameFile(fi, in)
}

// samePath reports whether the paths a and b name the same file: when both
// exist, by os.SameFile, which sees through "./", symbolic links and hard
// links; otherwise by their absolute forms with the symbolic links of
// their directories resolved.
func samePath(a, b string) bool {
	fa, erra := os.Stat(a)
	fb, errb := os.Stat(b)
	if erra == nil && errb == nil {
		return os.SameFile(fa, fb)
	}
	return canonical(a) == canonical(b)
}

// canonical returns the absolute form of path with the symbolic links of
// its directory, and of path itself if it is one, resolved as far as they
// exist.
func canonical(path string) string {
	if r, err := filepath.EvalSymlinks(path); err == nil {
		path = r
	} else if t, err := os.Readlink(path); err == nil {
		// A link to a file that does not exist yet: writing it creates
		// its target.
		if !filepath.IsAbs(t) {
			t = filepath.Join(filepath.Dir(path), t)
		}
		path = t
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return filepath.Clean(path)
	}
	dir, base := filepath.Split(abs)
	if r, err := filepath.EvalSymlinks(dir); err == nil {
		dir = r
	}
	return filepath.Join(dir, base)
}

// checkOutput reports whether the file path named by flag could be written,
// by creating and removing the temporary file beside it with which writing
// it starts (atomicfile.Create), so that a command fails before its work
// rather than after. "" and "-" are always fine, and so is an existing file
// that is not a regular file, such as /dev/null or a named pipe, if it can
// be opened for writing.
func checkOutput(flag, path string) error {
	if path == "" || path == "-" {
		return nil
	}
	if fi, err := os.Stat(path); err == nil && !fi.IsDir() && !fi.Mode().IsRegular() {
		// Opening a named pipe blocks until it has a reader; writing
		// reports its errors.
		return nil
	}
	f, err := atomicfile.Create(path)
	if err != nil {
		return outputError(flag, path, err)
	}
	f.Abort()
	return nil
}

// outputError returns the error of writing the file path named by flag, in
// the form "-o labels.csv: cannot write: permission denied".
func outputError(flag, path string, err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	return fmt.Errorf("%s %s: cannot write: %w", flag, path, err)
}
