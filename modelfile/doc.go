// Package modelfile implements the svclust model file: one JSON format,
// with one version number, that holds a fitted model whole — the scaling
// of the training data, the feature names, the run record, the phase-1
// [svclust.Model] (with how its settings were chosen and its training
// statistics, so that clustering it again gives the partition it was
// stored with) and its [cluster.Partition]. [File] is the library type of
// such a file, with [Read], [ReadFile] and [File.Write]; its methods
// label and score raw rows.
//
// Read reads every form written so far: the current one (format
// "svclust-model", version 8, whose model may hold "training", the state
// of the SGD that svclust.Update continues: svclust.Model.Training, of
// the size of the support set), version 7 (without it: its models load,
// score and label as before, and svclust.Update refuses them with
// svclust.ErrNoTraining; its partitions hold what the whole-space
// outlier score needs: cluster.OutlierData), version 6 (the same with
// the depth score of that version, which such a file keeps, also when
// written again; its model may hold a projection, svclust.Model.Subspace,
// and its statistics, as version 7's), version 5 (without them: its partitions
// give no outlier scores and keep their -outliers rule), the command's "svclust-cli-model" files
// (versions 1 and 2, which nest the library's file) and the library's
// bare "svclust-model" files (versions 1 to 4, without scaling).
package modelfile
