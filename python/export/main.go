// Command export is the C shared library of the Python package svclust
// (python/svclust), built with
//
//	go build -buildmode=c-shared -o libsvclust.so ./python/export
//
// by python/setup.py. It is the only cgo of the repository: core.go calls
// the library in plain Go, export.go converts C types. Built without cgo it
// is an empty program, so that go vet and go build ./... work everywhere.
package main

func main() {}
