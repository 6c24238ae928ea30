package reproduce

import (
	"context"
	"fmt"
	"io"
	"math"
	"reflect"
	"slices"
	"strings"
	"time"
)

// ExtendedGrid returns the default grid of C of a report's extended part:
// the paper's grid {2⁻⁵, 2⁻³, …, 2⁵} followed by 2⁷, 2⁹ and 2¹¹, where
// the paper's objective lets the domain f ≥ 0 hold every point of the
// small data sets (see Reach).
func ExtendedGrid() []float64 { return append(Grid(), 128, 512, 2048) }

// Extension is the part of a Report beyond the paper's grid: the budgeted
// methods rerun on the data sets of at most SmallLimit points with a wider
// grid of C. It is not the paper's protocol; the report renders it in a
// section of its own, beside the faithful tables, never in them.
type Extension struct {
	// Command is the command line that ran this part, Machine where,
	// Date when it started (RFC 3339) and Seconds how long it took. They
	// differ from the Report's when the paper-grid records come from an
	// earlier run. RunExtended leaves Command and Machine to the caller.
	Command string  `json:"command"`
	Machine Machine `json:"machine"`
	Date    string  `json:"date"`
	Seconds float64 `json:"seconds"`
	// Protocol holds the settings of this part: the report's with the
	// wider grid of C.
	Protocol Protocol `json:"protocol"`
	// Records holds one record per data set and method of ExtendedScope.
	Records []Record `json:"records"`
}

// ExtendedScope returns what the extended grid concerns: of the data sets
// of recs (the records of the paper's grid), in their order, those of
// 1 to SmallLimit points, the small sets of the reproduction criterion; and of methods the
// budgeted ones that recs hold, in the order of methods. Both are empty
// when either would be.
func ExtendedScope(recs []Record, methods []Method) ([]DataSet, []Method) {
	var ds []DataSet
	seen := map[string]bool{}
	for _, r := range recs {
		if r.N > 0 && r.N <= SmallLimit && !seen[r.Dataset] {
			seen[r.Dataset] = true
			ds = append(ds, Lookup(r.Dataset))
		}
	}
	var ms []Method
	for _, m := range methods {
		in := slices.ContainsFunc(recs, func(r Record) bool { return r.Method == m })
		if m.Budgeted() && in && !slices.Contains(ms, m) {
			ms = append(ms, m)
		}
	}
	if len(ds) == 0 || len(ms) == 0 {
		return nil, nil
	}
	return ds, ms
}

// RunExtended runs the extended part: p's protocol with the grid of C cs
// on the data sets and methods that ExtendedScope(recs, methods) gives,
// read from dir.
// It returns nil and no error when the scope is empty, and the records so
// far and ctx's error if ctx is cancelled.
func (p *Protocol) RunExtended(ctx context.Context, dir string, cs []float64, recs []Record, methods []Method) (*Extension, error) {
	ds, ms := ExtendedScope(recs, methods)
	if len(ds) == 0 {
		return nil, nil
	}
	q := *p
	q.Cs = slices.Clone(cs)
	start := time.Now()
	e := &Extension{Date: start.UTC().Format(time.RFC3339)}
	var err error
	e.Records, err = q.Run(ctx, dir, ds, ms)
	e.Seconds = time.Since(start).Seconds()
	q.Progress = nil
	e.Protocol = q
	return e, err
}

// Compare returns the Comparison of the reproduction criterion on the records of
// the extended grid, as Report.Compare does on the paper's.
func (e *Extension) Compare() []Comparison {
	return (&Report{Records: e.Records}).Compare()
}

// ExtendedTitle is the start of the title of the extended section; the
// largest C of the grid follows it.
const ExtendedTitle = "Beyond the paper's grid: C up to "

// title returns the heading of the extended section, such as "Beyond the
// paper's grid: C up to 2¹¹".
func (e *Extension) title() string {
	return ExtendedTitle + power(slices.Max(orDefault(e.Protocol.Cs, Grid)))
}

// power formats c as a power of two with a superscript exponent, such as
// 2¹¹ or 2⁻⁵, or with %g when it is not one.
func power(c float64) string {
	frac, exp := math.Frexp(c)
	if frac != 0.5 {
		return fmt.Sprintf("%g", c)
	}
	sup := strings.NewReplacer("-", "⁻", "0", "⁰", "1", "¹", "2", "²", "3", "³", "4", "⁴",
		"5", "⁵", "6", "⁶", "7", "⁷", "8", "⁸", "9", "⁹")
	return "2" + sup.Replace(fmt.Sprint(exp-1))
}

// writeSummary writes the lines of the report's head that say which part
// is which, when the report has an extended part.
func (r *Report) writeSummary(w io.Writer) {
	e := r.Extended
	if e == nil {
		return
	}
	grid := "the paper's protocol on the paper's grid"
	if paperGrid(&r.Protocol) != "the paper's grid" {
		grid = "the protocol below, on a grid that is **not the paper's grid**"
	}
	fmt.Fprintf(w, "- Faithful tables: all but those of the section \"%s\": %s.\n", e.title(), grid)
	fmt.Fprintf(w, "- Extended tables: those of the section \"%s\", which reruns %s with C ∈ {%s}, beyond the paper's largest C of 2⁵ (issue 12). They are not the paper's protocol and are reported beside its tables, not in them.\n",
		e.title(), extendedWhat(e), list(orDefault(e.Protocol.Cs, Grid)))
	if e.Command != r.Command {
		fmt.Fprintf(w, "- Extended part: command `%s`; machine %s; date %s; wall time %s\n", e.Command, e.Machine, e.Date, duration(e.Seconds))
	}
}

// writeRuns writes the protocol's bullet on the runs that made the two
// parts of the report.
func (r *Report) writeRuns(w io.Writer) {
	e := r.Extended
	if e == nil {
		return
	}
	if e.Command == r.Command {
		fmt.Fprintf(w, "- Runs: both parts come from one run: the paper's grid from %s, then the extended grid from %s.\n", r.Date, e.Date)
		return
	}
	fmt.Fprintf(w, "- Runs: the two parts come from **two runs of different dates**, with the code of each date: the paper-grid records from the run of %s (`%s`), the extended-grid records from the run of %s (`%s`). A change to the code between them changes one part and not the other.\n",
		r.Date, r.Command, e.Date, e.Command)
}

// extendedWhat names the methods and data sets of the extended part.
func extendedWhat(e *Extension) string {
	rep := &Report{Records: e.Records}
	ds, ms := rep.layout()
	names := make([]string, len(ms))
	for i, m := range ms {
		names[i] = m.Title()
	}
	sets := make([]string, len(ds))
	for i, d := range ds {
		sets[i] = d.Title
	}
	what := "the budgeted methods"
	if len(ms) == 1 {
		what = "the budgeted method"
	}
	return fmt.Sprintf("%s %s on the %d data sets of at most %d points (%s)", what, joinAnd(names, "and"), len(ds), SmallLimit, strings.Join(sets, ", "))
}

// writeExtended writes the section of the extended part: the reproduction
// criterion on its records, beside the paper grid's count, and our NMI and
// setting chosen for every data set and method.
func (r *Report) writeExtended(w io.Writer) {
	e := r.Extended
	fmt.Fprintf(w, "## %s\n\n", e.title())
	fmt.Fprintf(w, "**Not the paper's protocol.** This section reruns %s with C ∈ {%s}", extendedWhat(e), list(orDefault(e.Protocol.Cs, Grid)))
	same := sameBut(e.Protocol, r.Protocol)
	if same {
		fmt.Fprintf(w, "; everything else is the protocol above")
	} else {
		fmt.Fprintf(w, "; its protocol differs from the one above in more than C, as follows")
	}
	fmt.Fprintf(w, ". It shows what the budgeted methods reach once C may exceed the paper's 2⁵, which limits them")
	if len(r.Reach) > 0 {
		fmt.Fprintf(w, " (see \"Why the grid of C limits the budgeted methods\")")
	}
	fmt.Fprintf(w, ". The faithful reproduction is the rest of this report, on the paper's grid.\n\n")
	if !same {
		rep := &Report{Records: e.Records}
		ds, ms := rep.layout()
		writeProtocol(w, &e.Protocol, ds, ms)
		fmt.Fprintln(w)
	}

	cs := e.Compare()
	if len(cs) > 0 {
		fmt.Fprintf(w, "### NMI of the best budgeted variant with C up to %s\n\n", power(slices.Max(orDefault(e.Protocol.Cs, Grid))))
		writeComparisonTable(w, cs)
		n3, n4 := within(cs)
		fmt.Fprintf(w, "\nWithin %.2f of the paper with C up to %s: **%d of %d** without BSGD-M, **%d of %d** with it.", Tolerance, power(slices.Max(orDefault(e.Protocol.Cs, Grid))), n3, len(cs), n4, len(cs))
		if pc := r.Compare(); len(pc) > 0 {
			p3, p4 := within(pc)
			fmt.Fprintf(w, " On the paper's grid (the faithful table above): %d of %d without BSGD-M, %d of %d with it.", p3, len(pc), p4, len(pc))
		}
		fmt.Fprintf(w, "\n\n")
	}

	rep := &Report{Records: e.Records}
	ds, ms := rep.layout()
	fmt.Fprintf(w, "### NMI and setting chosen with C up to %s\n\n", power(slices.Max(orDefault(e.Protocol.Cs, Grid))))
	fmt.Fprintf(w, "Each cell is **our NMI** ± sd over the seeded runs, then the γ and C chosen by NMI at seed 1 on this grid, the grid points evaluated and the runs finished; `[B]` is the budget.\n\n")
	header(w, "Dataset", ms)
	for _, d := range ds {
		fmt.Fprintf(w, "| %s [%d] |", d.Title, d.Budget)
		for _, m := range ms {
			rec := rep.find(d.Name, m)
			switch {
			case rec == nil:
				fmt.Fprintf(w, " |")
			case !rec.OK():
				fmt.Fprintf(w, " %s |", shortStatus(rec.Status))
			default:
				fmt.Fprintf(w, " **%s**%s; γ %s, C %s; grid %d/%d, %d runs |", fmtNum(rec.NMI.Mean, false), fmtSD(rec.NMI.SD, false),
					fmtG(rec.Gamma), fmtG(rec.C), rec.GridEvaluated, rec.GridTotal, rec.Runs)
			}
		}
		fmt.Fprintln(w)
	}
	fmt.Fprintln(w)
}

// sameBut reports whether the protocols a and b agree in everything but
// their grids of C, their Workers (which change only timings) and their
// Progress.
func sameBut(a, b Protocol) bool {
	a.Cs, b.Cs, a.Workers, b.Workers, a.Progress, b.Progress = nil, nil, 0, 0, nil, nil
	if len(a.Skip) == 0 {
		a.Skip = nil
	}
	if len(b.Skip) == 0 {
		b.Skip = nil
	}
	return reflect.DeepEqual(a, b)
}

// within counts the comparisons within Tolerance without and with BSGD-M.
func within(cs []Comparison) (n3, n4 int) {
	for _, c := range cs {
		if c.Within(c.Ours) {
			n3++
		}
		if c.Within(c.OursM) {
			n4++
		}
	}
	return n3, n4
}

// duration formats seconds as the report's head does.
func duration(s float64) string {
	return time.Duration(s * float64(time.Second)).Round(time.Second).String()
}
