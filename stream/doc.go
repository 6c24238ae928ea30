// Package stream implements the out-of-core passes of svclust: fitting
// and labelling data larger than memory, read as CSV text once or more.
//
// [SampleScale] reads the data row by row. It keeps a seeded uniform
// sample of at most Size rows (a [sample.Reservoir]) and the statistics
// of the scaling over every row (a [dataset.ScaleFitter]). The z-score
// needs the mean before the variance about it, as [dataset.FitScaler]
// computes them, so it takes another pass (and one more for a column whose
// variance under- or overflows float64 when computed directly): over the
// sample when the sample holds every row, otherwise over the data, opened
// again. The scaling is therefore bit for bit the one dataset.FitScaler
// fits on all the rows in memory.
//
// The scaled sample is then trained and clustered in memory, and
// [LabelStream] reads the data once more in chunks of rows, scales them,
// labels them with the model's Predict and hands the labels on as they
// come. Memory holds the sample (8·d bytes a row), two chunks (one is read
// while the other is labelled), the dataset.Scanner's batch of lines read
// ahead and the model:
// nothing grows with the number of rows. When the data have at most Size
// rows the sample is every row in order, so the model is the one trained
// on all of them.
package stream
