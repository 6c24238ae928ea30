package settings

import (
	"os"
	"strconv"
	"time"

	"github.com/svclust/svclust"
	"github.com/svclust/svclust/modelfile"
)

// Source describes the training data of a run for its record.
type Source struct {
	// Data names the data: the DATA argument of fit, the -input glob of
	// svclust-beam.
	Data string
	// Rows is the number of rows of the data.
	Rows int
	// Sample is the number of rows trained on when they are a sample of
	// the data (Stream), 0 otherwise.
	Sample int
	// SHA256 is the SHA-256 of the bytes of the data in hexadecimal, or
	// "" when the data are not one file.
	SHA256 string
	// Created is the creation time to record; the zero value means
	// [CreationTime]. A caller whose environment the Go runtime does not
	// see (the Python package) sets it with [CreationTimeAt].
	Created time.Time
}

// Record returns the run record of the model m, trained and clustered with
// the settings s on the data src by the program tool: what the model file
// says of how it was made. It is the one function of the package that
// names the record's type.
func (s *Settings) Record(tool string, m *svclust.Model, src Source) *modelfile.Run {
	created := src.Created
	if created.IsZero() {
		created = CreationTime()
	}
	r := &modelfile.Run{
		Tool:       tool,
		Created:    created.UTC().Format(time.RFC3339),
		Seed:       s.Seed,
		Strategy:   s.Maintain,
		Budget:     m.Choice.Budget,
		BudgetFrom: from(s.Budget.Auto, false),
		Rule:       s.Rule,
		Gamma:      m.Gamma,
		GammaFrom:  from(s.Gamma.Auto, s.TunedGamma),
		C:          m.C,
		CFrom:      from(s.C.Auto, s.TunedC),
		Width:      m.Choice.WidthRule().String(),
		Data:       src.Data,
		Rows:       src.Rows,
		Sample:     src.Sample,
		DataSHA256: src.SHA256,
	}
	if m.Choice.Budget == svclust.NoBudget {
		r.Strategy = "none"
	} else if s.TakesK() {
		r.K = s.K
	}
	return r
}

// from says how γ, C or the budget was chosen: "tune" (the best of tune's
// grid), "auto" (from the data) or "given".
func from(auto, tuned bool) string {
	switch {
	case tuned:
		return "tune"
	case auto:
		return "auto"
	}
	return "given"
}

// CreationTime returns the time a model file records: the time of the
// environment variable SOURCE_DATE_EPOCH (seconds since 1970, the
// reproducible-builds convention) when it is set, so that runs can give
// byte-identical model files, else now; in UTC, in whole seconds.
func CreationTime() time.Time {
	return CreationTimeAt(os.Getenv("SOURCE_DATE_EPOCH"))
}

// CreationTimeAt is CreationTime with the value of SOURCE_DATE_EPOCH given,
// for a caller whose environment the Go runtime does not see (a library
// loaded by another program): epoch when it is a whole number of seconds,
// else now.
func CreationTimeAt(epoch string) time.Time {
	if epoch != "" {
		if sec, err := strconv.ParseInt(epoch, 10, 64); err == nil {
			return time.Unix(sec, 0).UTC()
		}
	}
	return time.Now().UTC().Truncate(time.Second)
}
