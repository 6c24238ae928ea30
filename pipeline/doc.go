// Package pipeline implements the pipeline of the svclust command as a
// library: read, scale, sample, train, cluster and label, in pieces that
// serve in-memory fits, out-of-core fits of files larger than memory and
// distributed runs (the Apache Beam pipeline of the nested module beam/)
// alike.
//
// # The fitted model
//
// [Model] is everything needed to label raw rows: the scaling fitted on
// the training data ([dataset.Scale] and its [dataset.Scaler]), the
// feature names, the name of the label column, a record of the run that
// made it ([Run]), the trained [svclust.Model] and its [cluster.Partition]. Its JSON
// form, written by [Model.Write] and read by [Read] and [ReadFile], is the
// model file of `svclust fit -model`, which `svclust predict`, `score` and
// `plot` read:
//
//	{"format":"svclust-cli-model","version":2,"scale":"zscore",
//	 "scaler":{"shift":[…],"mul":[…]},"features":[names],"label":"label",
//	 "run":{…},"model":<cluster.Partition JSON>}
//
// Version 2 added the "run" section; version 1 files, without it, still
// load, and newer versions are refused with an error that says so.
//
// [Model.Predict] and [Model.Score] take raw (unscaled) rows, scale them
// with the model's scaler and apply the model; [Model.Columns] maps the
// header of a data file onto the model's features as `svclust predict`
// does. A Model is not modified by them and is safe for concurrent use.
package pipeline
