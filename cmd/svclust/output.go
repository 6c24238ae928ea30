package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
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
// change: every file is first written in full to a hidden temporary file
// beside it (".NAME.tmp" and digits), then standard output is written, and
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
	for _, f := range files {
		if err := f.staged.Commit(); err != nil {
			return outputError(f.flag, f.path, err)
		}
	}
	return nil
}

// appendInts appends the values v to buf in decimal, one a line, as
// the label files of fit -o and predict hold them.
func appendInts(buf []byte, v []int) []byte {
	for _, x := range v {
		buf = strconv.AppendInt(buf, int64(x), 10)
		buf = append(buf, '\n')
	}
	return buf
}

// appendFloats appends the values v to buf, one a line, in the shortest
// form that reads back exactly, as score writes them.
func appendFloats(buf []byte, v []float64) []byte {
	for _, x := range v {
		buf = strconv.AppendFloat(buf, x, 'g', -1, 64)
		buf = append(buf, '\n')
	}
	return buf
}

// checkOutput reports whether the file path named by flag could be written,
// by creating and removing the temporary file beside it with which writing
// it starts (atomicfile.Create), so that a command fails before its work
// rather than after. Writing over one of the inputs is a usage error: the
// output would replace the data it came from. "" and "-" are always fine.
func checkOutput(flag, path string, inputs ...string) error {
	if path == "" || path == "-" {
		return nil
	}
	fi, err := os.Stat(path)
	if err == nil && !fi.Mode().IsRegular() {
		return outputError(flag, path, errors.New("not a regular file"))
	}
	for _, in := range inputs {
		if ii, ierr := os.Stat(in); err == nil && ierr == nil && os.SameFile(fi, ii) {
			return usagef("%s %s is also an input; write the output elsewhere", flag, path)
		}
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
