// Package settings implements the settings of one svclust run: the flags
// that `svclust fit`, `tune` and `demo` and `svclust-beam` share, their
// validation, the library configurations they yield, the limits of the size
// flags and the run record of the model file.
//
// A [Settings] holds the flags as the user gave them (numbers, names and
// "auto"), so that it serialises as it is: svclust-beam sends it to its
// workers as JSON and each worker builds its own [svclust.Config]. Its
// methods are the one place where flags become library settings:
// [Settings.Validate] checks every flag and names it in the message ("-gamma
// must be > 0 or "auto""), [Settings.Config] and [Settings.ClusterMethod]
// build what [svclust.Train] and [cluster.Fit] take, and
// [Settings.Record] writes the run record.
//
// # Conventions
//
// The flags and the library give some values different meanings; the
// mapping is done here and nowhere else.
//
//   - -budget 0 means no budget (plain SGD): [svclust.Config].Budget is
//     [svclust.NoBudget]. -budget auto is Config.Budget 0, the library's
//     "choose from the data". A positive -budget is Config.Budget.
//   - -gamma, -C, -budget, -min-size and -eps take the word auto, which is
//     the library's zero value.
//   - -tol 0 runs -max-iter steps: Config.Tol −1, the library's "no
//     stopping rule" (its zero value is the default tolerance).
//   - -m is at least 2 and 0 is an error, as `svclust fit` has always said;
//     its default is [cluster.DefaultM]. svclust-beam used to read -m 0 as
//     the default; a flag whose help shows its default does not need a
//     second spelling of it, and -m is the one count of the command line
//     where 0 is not a meaning of its own.
//   - -k is given or [svclust.DefaultK]. Given, it must be a projection's
//     (-maintain project-knn or project-random) and at most the budget; not
//     given, the library's default is used, capped by the budget.
//   - With Stream (fit -stream, svclust-beam) the model is trained on a
//     sample and every row is labelled afterwards by the partition; under
//     -rule components every sample row then follows its trajectory, as
//     with -all.
//
// # Creation time
//
// [CreationTime] is the time a model file records: SOURCE_DATE_EPOCH when it
// is set (the reproducible-builds convention), else now, in UTC, truncated
// to whole seconds. The record stores RFC 3339 without fractions, so the
// truncation changes no file; svclust-beam used not to truncate, `svclust
// fit` did, and the time itself is now whole seconds for both.
package settings
