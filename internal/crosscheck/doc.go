// Package crosscheck holds the tests that exercise several packages at
// once, which belong to none of them: bad input to every library entry
// point (svclust, cluster, modelfile, stream, dataset, figure, baseline,
// sample) and settings at their extremes carried from training through
// clustering to the model file. It has no code of its own.
package crosscheck
