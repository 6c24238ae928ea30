// Package sample implements the seeded random samples of rows that
// svclust draws: without replacement from rows in memory ([Rows],
// [Indices], [SortedIndices]), from a stream of unknown length
// ([Reservoir]), and in mergeable pieces keyed by a hash of each row's
// identity ([BottomK]).
//
// Every sample is a function of its random source (or, for BottomK, its
// seed) and the rows: the same source gives the same rows, whatever the
// number of workers. The functions take a *rand.Rand, as gonum's
// stat/sampleuv takes a rand.Source, so that the caller chooses the seed
// and the stream; none uses the global source.
//
// The samplers draw differently on purpose: each reproduces the draws of
// the code it replaced, so that models and labels do not change. Indices
// and SortedIndices are both samples without replacement, but SortedIndices
// takes the first m of rand.Perm(n), which is not Indices in another order.
package sample
