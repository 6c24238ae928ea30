// Package beam implements svclust as an Apache Beam pipeline, for data that
// outgrow one machine: it runs on Beam's local Prism runner and, unchanged,
// on Dataflow, Flink or Spark (the portable runner). It is the only package
// of svclust that imports the Beam SDK, in its own Go module so that the
// core keeps gonum as its one heavy dependency; it holds no algorithm of its
// own and calls the library for every step.
//
// # The pipeline
//
// The input is a set of CSV files with the same columns, plain or gzip,
// named by a glob ([Options.Input]). [Run] builds and runs
//
//		files ──scan──▶ per file: scaling statistics of every row + BottomK sample ──Combine──▶ one summary
//		summary ──train (one worker)──▶ model file (JSON bytes)
//		files ──label, model as side input──▶ PREFIX-SSSSS-of-NNNNN.csv, one shard per file
//
//	  - scan reads each file with [dataset.Scanner] (gzip is detected by its
//	    magic bytes) and summarises it: the column statistics of the scaling
//	    (the first pass of a [dataset.ScaleFitter], finished by its
//	    OnePassScaler) and a seeded fixed-size uniform sample
//	    ([sample.BottomK], keyed by a hash of the seed, the file and the
//	    line). A combiner merges the summaries of the files. The sample
//	    depends only on the seed and the rows, the statistics are merged in
//	    file order: the result is the same for any number of workers and any
//	    bundling.
//	  - train scales the sample, trains and clusters it with the library
//	    ([svclust.Train], [cluster.Fit]) and writes the model file
//	    ([modelfile.File], the format `svclust predict -model` reads).
//	  - label reads each file again and labels its rows chunk by chunk with
//	    [modelfile.File.Predict], the code of `svclust predict`, writing
//	    every row as it is in the input with final columns "cluster" and
//	    "outlier" (the outlier score).
//
// Each input file is one shard of the output, written by one worker to a
// temporary file renamed when complete, so the rows of a shard are in
// their input order and a retried bundle rewrites the same shard. A file is
// read whole by one worker (gzip cannot be split): parallelism is the
// number of input files, and a large input should be split into several.
//
// By design a worker holds the samples of the files it summarises (up to
// Settings.Sample rows each), one chunk of rows, a batch of lines read
// ahead (dataset.Scanner) and the model, whose size
// depends on the budget, not on the number of rows. The summaries are the
// pipeline's only large elements, and the runner holds them encoded (Prism,
// in this process, keeps each bundle's output and the grouped
// accumulators), so they have a compact coder of their own: memory is
// O(files × Settings.Sample), not O(rows). The README reports the peaks
// measured on Prism.
package beam
