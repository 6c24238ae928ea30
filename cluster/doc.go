// Package cluster implements phase 2 of svclust: it assigns points to
// clusters from a trained [svclust.Model] and returns a [Partition], a
// value that labels any point afterwards.
//
// Each rule is a [Method] in a file of its own, with its settings as the
// fields of its type: [Levels] (the default) reads the clusters off the
// level tree of f, and [Components] is the paper's Algorithm 3. [Fit]
// applies one to the data; a nil Method, or a zero settings field,
// selects the documented default. The partitions, [*LevelTree] and
// [*Graph], hold everything Predict needs and nothing refers back to the
// clustering; they are read-only once made and safe for concurrent use.
// Package modelfile stores them.
//
// Lengths are in units of the kernel's length scale ℓ = 1/√γ, the
// distance over which k falls by e. The measurements behind the defaults
// are in docs/defaults.md.
package cluster
