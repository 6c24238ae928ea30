package modelfile

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"reflect"
	"slices"
	"strings"
	"time"

	"github.com/svclust/svclust"
	"github.com/svclust/svclust/auto"
	"github.com/svclust/svclust/dataset"
	"github.com/svclust/svclust/internal/jsonkeys"
)

// DefaultMaxBytes is the largest model file [Read] and [ReadFile] read by
// default: 1 GiB. A model file holds the support vectors and the model's
// partition, at about 20 bytes a value.
const DefaultMaxBytes = 1 << 30

// maxLeadingSpace is the most white space read before the '{' that starts
// a model file; Write writes none.
const maxLeadingSpace = 4096

// Read reads a model file of at most limit bytes (0 or less means
// [DefaultMaxBytes]) from r, as written by [File.Write] or any earlier
// form (see the package documentation), and validates it. It fails at the first byte that cannot belong to a model file — a
// first non-space byte other than '{', a JSON syntax error, a key that
// occurs twice in one object (which encoding/json would accept, the last
// value winning), a key that is the name of a field only when case is
// ignored (which encoding/json would decode into that field) — without
// reading further, and wraps [ErrTooLarge] as
// soon as more than limit bytes have been read. The keys are checked as a
// stream, then the bytes read are decoded, so memory holds the file once.
func Read(r io.Reader, limit int64) (*File, error) {
	if r == nil {
		return nil, fmt.Errorf("%w: nil io.Reader", ErrFormat)
	}
	return read(r, nil, limit)
}

// ReadFile reads the model file path as [Read] does; errors name the file.
// A regular file larger than limit is refused before it is read, and is
// read twice (once to check its keys, once to decode it) rather than held
// in memory.
func ReadFile(path string, limit int64) (*File, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	var again io.Seeker
	if fi.Mode().IsRegular() {
		if limit <= 0 {
			limit = DefaultMaxBytes
		}
		if fi.Size() > limit {
			return nil, fmt.Errorf("%s: %w", path, ErrTooLarge)
		}
		again = f
	}
	m, err := read(f, again, limit)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return m, nil
}

// read reads a model file from r; again, if not nil, rewinds r to read it
// a second time instead of keeping the bytes of the first.
func read(r io.Reader, again io.Seeker, limit int64) (*File, error) {
	if limit <= 0 {
		limit = DefaultMaxBytes
	}
	lr := &io.LimitedReader{R: r, N: limit + 1}
	br := bufio.NewReader(lr)
	if err := startsObject(br); err != nil {
		if lr.N == 0 {
			return nil, ErrTooLarge
		}
		return nil, notModel(err)
	}
	var kept bytes.Buffer
	var src io.Reader = br
	if again == nil {
		src = io.TeeReader(br, &kept)
	}
	err := jsonkeys.CheckFields(src, fileFields)
	if lr.N == 0 {
		return nil, ErrTooLarge
	}
	if err != nil {
		return nil, notModel(err)
	}
	if again != nil {
		if _, err := again.Seek(0, io.SeekStart); err != nil {
			return nil, err
		}
		lr.N = limit + 1
		src = bufio.NewReader(lr)
	} else {
		src = io.MultiReader(&kept, br)
	}
	m, err := decode(src)
	if lr.N == 0 {
		return nil, ErrTooLarge
	}
	return m, err
}

// notModelError is the error of bytes that are no model file at all: its
// message is "not a model file: " and the cause, and it wraps both the
// cause and ErrFormat.
type notModelError struct{ err error }

func (e *notModelError) Error() string   { return "not a model file: " + e.err.Error() }
func (e *notModelError) Unwrap() []error { return []error{e.err, ErrFormat} }

func notModel(err error) error { return &notModelError{err} }

// startsObject skips the white space at the start of br, at most
// maxLeadingSpace bytes, and checks that the next byte is '{', which it
// leaves unread.
func startsObject(br *bufio.Reader) error {
	for i := 0; ; i++ {
		c, err := br.ReadByte()
		if err == io.EOF {
			return errors.New("empty")
		}
		if err != nil {
			return err
		}
		switch c {
		case ' ', '\t', '\n', '\r':
			if i >= maxLeadingSpace {
				return fmt.Errorf("no '{' within its first %d bytes", maxLeadingSpace)
			}
			continue
		case '{':
			return br.UnreadByte()
		}
		return fmt.Errorf("invalid byte 0x%02x at offset %d: a model file is a JSON object", c, i)
	}
}

// fileJSON is a model file as decoded: the keys of every form Read reads.
// Pointer fields distinguish a missing key from a zero value.
type fileJSON struct {
	Format    string          `json:"format"`
	Version   int             `json:"version"`
	Scale     *string         `json:"scale"`
	Scaler    *dataset.Scaler `json:"scaler"`
	Features  []string        `json:"features"`
	Label     string          `json:"label"`
	Run       *Run            `json:"run"`
	Model     *modelJSON      `json:"model"`
	Partition *partitionJSON  `json:"partition"`
	Clusters  *clustersJSON   `json:"clusters"` // version 8 (online.go)

	// The keys of the library's bare file, versions 1 to 4, whose model
	// is the file itself.
	Gamma  *float64    `json:"gamma"`
	C      *float64    `json:"c"`
	CAuto  *bool       `json:"c_auto"`
	Dim    *int        `json:"dim"`
	SV     *matrixJSON `json:"sv"`
	Alpha  []float64   `json:"alpha"`
	Gammas []float64   `json:"gammas"`
	Status *string     `json:"status"`
	Stats  *statsJSON  `json:"stats"`
}

// fileFields are the keys of a model file at each of its levels, which
// Read checks before decoding: "Scaler", "PARTITION" or "model.Gamma"
// would otherwise be decoded as "scaler", "partition" and "model.gamma".
var fileFields = jsonkeys.FieldsOf(fileJSON{})

// bare reports whether any key of the library's bare file is present.
func (mf *fileJSON) bare() bool {
	return mf.Gamma != nil || mf.C != nil || mf.CAuto != nil || mf.Dim != nil || mf.SV != nil || mf.Alpha != nil ||
		mf.Gammas != nil || mf.Status != nil || mf.Stats != nil
}

// decode decodes and validates a model file whose keys have been checked.
func decode(r io.Reader) (*File, error) {
	dec := json.NewDecoder(r)
	dec.DisallowUnknownFields()
	var mf fileJSON
	if err := dec.Decode(&mf); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) && te.Field != "" {
			// A model file with a value of the wrong kind: say so in the
			// file's words, not in Go's types.
			if strings.HasPrefix(te.Value, "number") {
				return nil, fmt.Errorf("%w: %s: %s is not %s", ErrFormat, te.Field, te.Value, kindOf(te.Type))
			}
			return nil, fmt.Errorf("%w: %s: a %s where %s belongs", ErrFormat, te.Field, te.Value, kindOf(te.Type))
		}
		return nil, notModel(err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, notModel(errors.New("data after the model"))
	}
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%w: "+format, append([]any{ErrFormat}, args...)...)
	}
	// The model, of a library version (1 to 3) or Version, and the
	// partition.
	var mj *modelJSON
	var pj *partitionJSON
	var version int
	switch mf.Format {
	case Format:
		switch {
		case mf.Version > Version:
			return nil, fmt.Errorf("model file version %d is newer than this svclust reads (1 to %d): use a newer svclust", mf.Version, Version)
		case mf.Version < 1:
			return nil, bad("version %d, want 1 to %d", mf.Version, Version)
		case mf.Version >= wholeVersion:
			if mf.bare() {
				return nil, bad("version %d has the model under \"model\"", mf.Version)
			}
			if mf.Model == nil {
				return nil, bad("no model")
			}
			if mf.Model.Format != "" || mf.Model.Version != 0 || mf.Model.Partition != nil {
				return nil, bad("model: format, version and partition are keys of the file")
			}
			mj, pj = mf.Model, mf.Partition
		default:
			// The library's bare file: no scaling, the model at the top.
			if mf.Scale != nil || mf.Scaler != nil || mf.Features != nil || mf.Label != "" || mf.Run != nil || mf.Model != nil {
				return nil, bad("version %d holds a model only", mf.Version)
			}
			if mf.SV == nil {
				mf.SV = &matrixJSON{}
			}
			mj = &modelJSON{Format: Format, Version: mf.Version, CAuto: mf.CAuto, Gammas: mf.Gammas, Alpha: mf.Alpha, SV: *mf.SV, Stats: mf.Stats}
			if mf.Gamma != nil {
				mj.Gamma = *mf.Gamma
			}
			if mf.C != nil {
				mj.C = *mf.C
			}
			if mf.Dim != nil {
				mj.Dim = *mf.Dim
			}
			if mf.Status != nil {
				mj.Status = *mf.Status
			}
			pj = mf.Partition
		}
		version = mf.Version
	case cliFormat:
		switch {
		case mf.Version > cliVersion:
			return nil, fmt.Errorf("model file version %d is newer than this svclust reads (1 to %d): use a newer svclust", mf.Version, cliVersion)
		case mf.Version < 1:
			return nil, bad("version %d, want 1 to %d", mf.Version, cliVersion)
		}
		if mf.bare() || mf.Partition != nil {
			return nil, bad("%s has the model under \"model\"", cliFormat)
		}
		if mf.Model == nil {
			return nil, bad("no model")
		}
		mj, pj = mf.Model, mf.Model.Partition
		if mj.Format != Format {
			return nil, bad("model: format is %q, want %q", mj.Format, Format)
		}
		if mj.Version < 1 || mj.Version > libVersion {
			return nil, bad("model: version is %d, want 1 to %d", mj.Version, libVersion)
		}
		version = mj.Version
	default:
		return nil, bad("format is %q, want %q", mf.Format, Format)
	}
	if err := mj.check(version); err != nil {
		return nil, err
	}
	m := mj.model()
	if mj.Choice == nil && mf.Run != nil {
		cAuto := m.Choice.CAuto
		m.Choice = choiceOf(m, mf.Run)
		if mj.CAuto != nil {
			m.Choice.CAuto = cAuto // the model's own record (version 4)
		}
	}
	f := &File{Scale: dataset.ScaleNone, Features: mf.Features, Label: mf.Label, Run: mf.Run, Model: m}
	d := m.Dim()
	if mf.Format == Format && version < wholeVersion {
		// A bare library file: rows are given in the model's space.
		f.Scaler = &dataset.Scaler{Shift: make([]float64, d), Mul: make([]float64, d)}
		for j := range f.Scaler.Mul {
			f.Scaler.Mul[j] = 1
		}
	} else {
		if mf.Scale == nil {
			return nil, bad("no scale")
		}
		scale, err := dataset.ParseScale(*mf.Scale)
		if err != nil {
			return nil, bad("unknown scale %q", *mf.Scale)
		}
		f.Scale = scale
		if mf.Scaler == nil {
			return nil, bad("no scaler")
		}
		f.Scaler = mf.Scaler
	}
	if err := f.checkParts(); err != nil {
		return nil, bad("%s", lowerFirst(err.Error()))
	}
	if pj != nil {
		p, err := pj.partition(m, version)
		if err != nil {
			return nil, err
		}
		f.Partition = p
	}
	tr, err := mj.Training.training(version, len(m.Alpha))
	if err != nil {
		return nil, err
	}
	m.Training = tr
	if c := mf.Clusters; c != nil {
		if version < trainingVersion {
			return nil, bad("version %d has no clusters", version)
		}
		if c.IDs == nil {
			return nil, bad("clusters: no ids")
		}
		f.ClusterIDs, f.NextClusterID = c.IDs, c.Next
		if err := f.checkIDs(); err != nil {
			return nil, bad("%s", lowerFirst(err.Error()))
		}
	}
	if mf.Run != nil {
		rule := ""
		if f.Partition != nil {
			rule = f.Partition.Rule().String()
		}
		if err := checkRun(mf.Run, m, rule, mf.Format == Format && version >= outlierVersion); err != nil {
			return nil, err
		}
	}
	return f, nil
}

// checkRun checks the run record r of a file against itself and the model
// m (whose partition has the rule named rule, "" if none), field by field,
// so that a file that contradicts itself is refused naming the field. current
// is set for a file of version 6 or later, whose run record fit, tune,
// Python and Beam write from the model itself: its γ, C and budget are
// then the model's. Older files are checked for what they could hold.
func checkRun(r *Run, m *svclust.Model, rule string, current bool) error {
	bad := func(field, format string, args ...any) error {
		return fmt.Errorf("%w: run: %s: "+format, append([]any{ErrFormat, field}, args...)...)
	}
	from := func(field, v string, allowed ...string) error {
		if !slices.Contains(allowed, v) {
			return bad(field, "%q, want one of %q", v, allowed)
		}
		return nil
	}
	switch {
	case r.Rows < 0:
		return bad("rows", "%d is negative", r.Rows)
	case r.Sample < 0:
		return bad("sample", "%d is negative", r.Sample)
	case r.Rows > 0 && r.Sample > r.Rows:
		return bad("sample", "%d rows sampled of %d", r.Sample, r.Rows)
	case r.Budget < -1:
		return bad("budget", "%d: must be ≥ 1, or −1 for none", r.Budget)
	case r.K < 0:
		return bad("k", "%d is negative", r.K)
	case r.DataSHA256 != "" && !isHex(r.DataSHA256, 64):
		return bad("data_sha256", "%q is not 64 hexadecimal digits", r.DataSHA256)
	case r.Budget == -1 && r.Strategy != "" && r.Strategy != "none":
		return bad("strategy", "%q without a budget, want \"none\"", r.Strategy)
	case r.Strategy == "none" && r.Budget > 0:
		return bad("strategy", "\"none\" beside a budget of %d", r.Budget)
	case r.Strategy != "" && r.Strategy != "none" && !slices.Contains(svclust.MaintainerNames(), r.Strategy):
		return bad("strategy", "%q, want none or one of %q", r.Strategy, svclust.MaintainerNames())
	case r.K > 0 && r.Strategy != "" && r.Strategy != "project-knn" && r.Strategy != "project-random":
		return bad("k", "%d beside strategy %q: k belongs to project-knn and project-random", r.K, r.Strategy)
	case r.Rows > 0 && m.Choice.Sample > r.Rows:
		return bad("rows", "%d, fewer than the %d rows of the model's choice.sample", r.Rows, m.Choice.Sample)
	case r.Rows > 0 && m.Stats.ObjectiveRows > r.Rows:
		return bad("rows", "%d, fewer than the %d rows of the model's stats.objective_rows", r.Rows, m.Stats.ObjectiveRows)
	}
	if r.Created != "" {
		if _, err := time.Parse(time.RFC3339, r.Created); err != nil {
			return bad("created", "%q is not an RFC 3339 time", r.Created)
		}
	}
	if err := from("budget_from", r.BudgetFrom, "", "auto", "given"); err != nil {
		return err
	}
	if rule != "" && r.Rule != "" && r.Rule != rule {
		return bad("rule", "%q, but the partition's rule is %q", r.Rule, rule)
	}
	switch r.Width {
	case "adaptive", "global", "":
	default:
		return bad("width", "%q, want adaptive or global", r.Width)
	}
	if r.Width == "adaptive" && m.Gammas == nil || r.Width == "global" && m.Gammas != nil {
		return bad("width", "%q, but the model has %d widths of its own", r.Width, len(m.Gammas))
	}
	if !current {
		return nil
	}
	if err := from("gamma_from", r.GammaFrom, "", "auto", "given", "tune"); err != nil {
		return err
	}
	if err := from("C_from", r.CFrom, "", "auto", "given", "tune"); err != nil {
		return err
	}
	ch := m.Choice
	switch {
	case (r.Gamma != 0 || r.GammaFrom != "") && r.Gamma != m.Gamma: // 0 and "": not recorded
		return bad("gamma", "%v (%s), but the model's gamma is %v", r.Gamma, r.GammaFrom, m.Gamma)
	case (r.C != 0 || r.CFrom != "") && r.C != m.C:
		return bad("C", "%v (%s), but the model's c is %v", r.C, r.CFrom, m.C)
	case r.Budget != 0 && ch.Budget != 0 && r.Budget != ch.Budget:
		return bad("budget", "%d, but the model's choice.budget is %d", r.Budget, ch.Budget)
	case r.GammaFrom != "" && (r.GammaFrom == "auto") != ch.GammaAuto:
		return bad("gamma_from", "%q, but the model's choice.gamma_auto is %v", r.GammaFrom, ch.GammaAuto)
	case r.CFrom != "" && (r.CFrom == "auto") != ch.CAuto:
		return bad("C_from", "%q, but the model's choice.c_auto is %v", r.CFrom, ch.CAuto)
	case r.BudgetFrom != "" && (r.BudgetFrom == "auto") != ch.BudgetAuto:
		return bad("budget_from", "%q, but the model's choice.budget_auto is %v", r.BudgetFrom, ch.BudgetAuto)
	}
	return nil
}

// isHex reports whether s is n hexadecimal digits.
func isHex(s string, n int) bool {
	if len(s) != n {
		return false
	}
	for _, c := range s {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F') {
			return false
		}
	}
	return true
}

// kindOf describes the values of type t that a model file holds there.
func kindOf(t reflect.Type) string {
	switch t.Kind() {
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return fmt.Sprintf("a whole number (in digits) from 0 to %d", uint64(math.MaxUint64)>>(64-t.Bits()))
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return fmt.Sprintf("a whole number (in digits) from %d to %d", int64(-1)<<(t.Bits()-1), int64(math.MaxInt64)>>(64-t.Bits()))
	case reflect.Float32, reflect.Float64:
		return "a number within float64's range"
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "true or false"
	case reflect.Slice, reflect.Array:
		return "a list"
	}
	return "an object"
}

// lowerFirst returns s with its first letter in lower case, as the keys
// of the file spell the fields of File ("scaler" for Scaler).
func lowerFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToLower(s[:1]) + s[1:]
}

// choiceOf returns the Choice of m, read from a file older than version 5
// with the run record r: which of γ, C and the budget were automatic, as
// the run record says, and their values. The statistics they were chosen
// from are not known. The Levels rule reads CAuto, so that such a file
// clusters again as fit clustered it.
func choiceOf(m *svclust.Model, r *Run) auto.Choice {
	return auto.Choice{Decision: auto.Decision{
		Gamma: r.Gamma, C: r.C, Budget: r.Budget,
		GammaAuto: r.GammaFrom == "auto", CAuto: r.CFrom == "auto", BudgetAuto: r.BudgetFrom == "auto",
		Adaptive: m.Gammas != nil,
	}}
}
