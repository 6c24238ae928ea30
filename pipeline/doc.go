// Package pipeline implements the out-of-core passes of the svclust
// command as a library: read, scale, sample, train, cluster and label, in pieces that
// serve in-memory fits, out-of-core fits of files larger than memory and
// distributed runs (the Apache Beam pipeline of the nested module beam/)
// alike.
//
// The fitted model that labels raw rows, and its file, are package
// modelfile's [modelfile.File].
package pipeline
