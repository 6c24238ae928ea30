package main

// export.go is the C interface of the shared library that the Python
// package loads with ctypes: it converts C types to the Go values of
// core.go and back, and nothing else. Every function recovers a panic into
// an error, so that a bug cannot take the interpreter down.
//
// Conventions of every function:
//   - A fitted model is an opaque handle (a runtime/cgo.Handle), released
//     with svclust_release.
//   - On failure a function returns 0 (or the null handle), sets *kind to
//     1 (ValueError), 2 (cancelled: KeyboardInterrupt), 3 (RuntimeError,
//     such as a recovered panic) or 4 (a ValueError about a value of X,
//     its place as JSON: see kindLocated), and sets *msg to a message
//     allocated with malloc, which the caller frees with svclust_free.
//   - Arrays are the caller's, row-major float64 (X) and int64 (labels),
//     read or written during the call only.

/*
#include <stdint.h>
#include <stdlib.h>
*/
import "C"

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"runtime/cgo"
	"strconv"
	"unsafe"
)

// Error kinds, as python/svclust/_native.py maps them to exceptions.
const (
	kindValue    = 1
	kindCanceled = 2
	kindRuntime  = 3
	// kindLocated is a ValueError about a value of X: *msg is the JSON
	// object {"row": r, "col": c, "message": m}, r −1 for a whole column.
	kindLocated = 4
)

// fail stores err in *kind and *msg.
func fail(err error, kind *C.int, msg **C.char) {
	var ev *errValue
	text := err.Error()
	switch {
	case errors.As(err, &ev) && ev.located:
		*kind = kindLocated
		b, _ := json.Marshal(struct {
			Row     int    `json:"row"`
			Col     int    `json:"col"`
			Message string `json:"message"`
		}{ev.row, ev.col, ev.msg})
		text = string(b)
	case errors.As(err, &ev):
		*kind = kindValue
	case errors.Is(err, context.Canceled):
		*kind = kindCanceled
	default:
		*kind = kindRuntime
	}
	*msg = C.CString(text)
}

// guard recovers a panic of the calling function into its error.
func guard(kind *C.int, msg **C.char) {
	if r := recover(); r != nil {
		fail(fmt.Errorf("svclust: internal error (please report it): %v", r), kind, msg)
	}
}

func floats(p *C.double, n int) []float64 {
	if n == 0 {
		return nil
	}
	return unsafe.Slice((*float64)(unsafe.Pointer(p)), n)
}

func int64s(p *C.int64_t, n int) []int64 {
	if n == 0 {
		return nil
	}
	return unsafe.Slice((*int64)(unsafe.Pointer(p)), n)
}

// goBytes copies the n bytes at p.
func goBytes(p *C.char, n C.int64_t) []byte {
	if n <= 0 {
		return nil
	}
	return append([]byte(nil), unsafe.Slice((*byte)(unsafe.Pointer(p)), int(n))...)
}

// canceller is the context of a fit that another thread can cancel.
type canceller struct {
	ctx    context.Context
	cancel context.CancelFunc
}

//export svclust_canceller
func svclust_canceller() C.uintptr_t {
	ctx, cancel := context.WithCancel(context.Background())
	return C.uintptr_t(cgo.NewHandle(&canceller{ctx, cancel}))
}

//export svclust_cancel
func svclust_cancel(c C.uintptr_t) {
	defer func() { recover() }() // an invalid handle: nothing to cancel
	cgo.Handle(c).Value().(*canceller).cancel()
}

//export svclust_release
func svclust_release(h C.uintptr_t) {
	defer func() { recover() }() // an invalid handle: nothing to release
	if c, ok := cgo.Handle(h).Value().(*canceller); ok {
		c.cancel()
	}
	cgo.Handle(h).Delete()
}

//export svclust_free
func svclust_free(p unsafe.Pointer) { C.free(p) }

//export svclust_fit
func svclust_fit(x *C.double, n, d C.int64_t, owned C.int, params *C.char, paramsLen C.int64_t,
	canc C.uintptr_t, labels *C.int64_t, kind *C.int, msg **C.char) (h C.uintptr_t) {
	defer guard(kind, msg)
	ctx := context.Background()
	if canc != 0 {
		ctx = cgo.Handle(canc).Value().(*canceller).ctx
	}
	js := goBytes(params, paramsLen)
	f, err := fit(ctx, floats(x, int(n*d)), int(n), int(d), owned != 0, js)
	if err != nil {
		fail(err, kind, msg)
		return 0
	}
	f.labelsOf(int64s(labels, int(n)))
	return C.uintptr_t(cgo.NewHandle(f))
}

//export svclust_update
func svclust_update(h C.uintptr_t, x *C.double, n, d C.int64_t, owned C.int, params *C.char, paramsLen C.int64_t,
	canc C.uintptr_t, labels *C.int64_t, kind *C.int, msg **C.char) (out C.uintptr_t) {
	defer guard(kind, msg)
	ctx := context.Background()
	if canc != 0 {
		ctx = cgo.Handle(canc).Value().(*canceller).ctx
	}
	f := cgo.Handle(h).Value().(*fitted)
	g, err := f.update(ctx, floats(x, int(n*d)), int(n), int(d), owned != 0, goBytes(params, paramsLen))
	if err != nil {
		fail(err, kind, msg)
		return 0
	}
	g.labelsOf(int64s(labels, int(n)))
	return C.uintptr_t(cgo.NewHandle(g))
}

//export svclust_predict
func svclust_predict(h C.uintptr_t, x *C.double, n, d C.int64_t, workers C.int, out *C.int64_t, kind *C.int, msg **C.char) (ok C.int) {
	defer guard(kind, msg)
	f := cgo.Handle(h).Value().(*fitted)
	dst := make([]int, int(n))
	if strconv.IntSize == 64 && n > 0 {
		dst = unsafe.Slice((*int)(unsafe.Pointer(out)), int(n)) // written in place
	}
	if err := f.predict(dst, floats(x, int(n*d)), int(n), int(d), int(workers)); err != nil {
		fail(err, kind, msg)
		return 0
	}
	if strconv.IntSize != 64 {
		o := int64s(out, int(n))
		for i, l := range dst {
			o[i] = int64(l)
		}
	}
	return 1
}

//export svclust_score
func svclust_score(h C.uintptr_t, x *C.double, n, d C.int64_t, workers C.int, out *C.double, kind *C.int, msg **C.char) (ok C.int) {
	defer guard(kind, msg)
	f := cgo.Handle(h).Value().(*fitted)
	if err := f.score(floats(out, int(n)), floats(x, int(n*d)), int(n), int(d), int(workers)); err != nil {
		fail(err, kind, msg)
		return 0
	}
	return 1
}

//export svclust_outlier
func svclust_outlier(h C.uintptr_t, x *C.double, n, d C.int64_t, workers C.int, scores, strength *C.double, kind *C.int, msg **C.char) (ok C.int) {
	defer guard(kind, msg)
	f := cgo.Handle(h).Value().(*fitted)
	var st []float64
	if strength != nil {
		st = floats(strength, int(n))
	}
	if err := f.outlierScores(floats(scores, int(n)), st, floats(x, int(n*d)), int(n), int(d), int(workers)); err != nil {
		fail(err, kind, msg)
		return 0
	}
	return 1
}

//export svclust_train_outliers
func svclust_train_outliers(h C.uintptr_t, n C.int64_t, scores, strength *C.double, kind *C.int, msg **C.char) (ok C.int) {
	defer guard(kind, msg)
	if err := cgo.Handle(h).Value().(*fitted).trainOutliers(floats(scores, int(n)), floats(strength, int(n))); err != nil {
		fail(err, kind, msg)
		return 0
	}
	return 1
}

// bytesOut returns b to C as a malloc'd buffer and its length.
func bytesOut(b []byte, out **C.char, outLen *C.int64_t) {
	*out = (*C.char)(C.CBytes(b))
	*outLen = C.int64_t(len(b))
}

//export svclust_model_file
func svclust_model_file(h C.uintptr_t, out **C.char, outLen *C.int64_t, kind *C.int, msg **C.char) (ok C.int) {
	defer guard(kind, msg)
	b, err := cgo.Handle(h).Value().(*fitted).modelFile()
	if err != nil {
		fail(err, kind, msg)
		return 0
	}
	bytesOut(b, out, outLen)
	return 1
}

//export svclust_load
func svclust_load(b *C.char, n C.int64_t, kind *C.int, msg **C.char) (h C.uintptr_t) {
	defer guard(kind, msg)
	f, err := load(goBytes(b, n))
	if err != nil {
		fail(err, kind, msg)
		return 0
	}
	return C.uintptr_t(cgo.NewHandle(f))
}

//export svclust_info
func svclust_info(h C.uintptr_t, out **C.char, outLen *C.int64_t, kind *C.int, msg **C.char) (ok C.int) {
	defer guard(kind, msg)
	b, err := cgo.Handle(h).Value().(*fitted).info()
	if err != nil {
		fail(err, kind, msg)
		return 0
	}
	bytesOut(b, out, outLen)
	return 1
}

//export svclust_support_vectors
func svclust_support_vectors(h C.uintptr_t, sv *C.double, alpha *C.double, nsv, d C.int64_t, kind *C.int, msg **C.char) (ok C.int) {
	defer guard(kind, msg)
	cgo.Handle(h).Value().(*fitted).supportVectors(floats(sv, int(nsv*d)), floats(alpha, int(nsv)))
	return 1
}
