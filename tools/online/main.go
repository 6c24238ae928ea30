// Command online runs the prequential benchmark of issue 38
// (docs/online.md): generated streams of 2-D batches, drifting and
// stationary, each batch predicted before it is learnt, by svclust
// updated (without and with forgetting), svclust frozen after the first
// batch and svclust refitted on a sliding window of the last 10 batches.
// It writes the streams as CSV for the scikit-learn peers (peers.py) and
// one CSV row per stream, method and batch: ARI of the batch's rows (the
// planted anomalies left out), seconds spent learning the batch, and the
// AUC of the outlier score for the planted anomalies.
//
//	go run ./tools/online -out DIR [-batches 100] [-size 1000] [-streams a,b]
package main

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"log"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime/pprof"
	"slices"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"

	"gonum.org/v1/gonum/mat"

	"github.com/svclust/svclust"
	"github.com/svclust/svclust/cluster"
	"github.com/svclust/svclust/dataset"
	"github.com/svclust/svclust/metrics"
)

// window is the sliding window of the refit, in batches (issue 38).
const window = 10

// anomalies is the share of planted anomalies per batch.
const anomalies = 0.01

// batch is one batch of a stream: rows, true labels (−1 for a planted
// anomaly).
type batch struct {
	x      *mat.Dense
	labels []int
}

// validation are the streams that only run when -streams names them:
// the second set, on which a forgetting rate chosen on the others is
// checked (docs/online.md).
var validation = map[string]bool{"diverging": true, "orbiting": true, "spreading": true}

// streams are the generators, by name: each returns batch b of nb.
var streams = map[string]func(b, nb int, rng *rand.Rand) (x [2]float64, label int){
	// Three fixed Gaussian blobs.
	"stationary": func(b, nb int, rng *rand.Rand) ([2]float64, int) {
		return blob(rng, [][2]float64{{0, 0}, {4, 0}, {2, 3.5}}, 0.5)
	},
	// Three blobs whose centres travel 6 units along a line.
	"moving-blobs": func(b, nb int, rng *rand.Rand) ([2]float64, int) {
		s := 6 * float64(b) / float64(nb)
		return blob(rng, [][2]float64{{s, 0}, {4 + s, 0}, {2 + s, 3.5 - s/2}}, 0.5)
	},
	// Two moons sliding 3 units apart along x.
	"moving-moons": func(b, nb int, rng *rand.Rand) ([2]float64, int) {
		p, k := moon(rng)
		s := 1.5 * float64(b) / float64(nb)
		if k == 0 {
			p[0] -= s
		} else {
			p[0] += s
		}
		return p, k
	},
	// Two blobs, a third from batch nb/2.
	"appearing": func(b, nb int, rng *rand.Rand) ([2]float64, int) {
		c := [][2]float64{{0, 0}, {4, 0}}
		if b >= nb/2 {
			c = append(c, [2]float64{2, 3.5})
		}
		return blob(rng, c, 0.5)
	},
	// Three blobs, the third gone from batch nb/2.
	"vanishing": func(b, nb int, rng *rand.Rand) ([2]float64, int) {
		c := [][2]float64{{0, 0}, {4, 0}, {2, 3.5}}
		if b >= nb/2 {
			c = c[:2]
		}
		return blob(rng, c, 0.5)
	},
	// The validation streams, written after the table of docs/online.md
	// to check a forgetting rate on drifts it was not measured on. Four
	// blobs moving apart, from (±1.5, ±1.5) to (±4.5, ±4.5).
	"diverging": func(b, nb int, rng *rand.Rand) ([2]float64, int) {
		s := 1.5 + 3*float64(b)/float64(nb)
		return blob(rng, [][2]float64{{s, s}, {-s, s}, {-s, -s}, {s, -s}}, 0.5)
	},
	// Three blobs on a circle of radius 3, turning a full turn.
	"orbiting": func(b, nb int, rng *rand.Rand) ([2]float64, int) {
		a := 2 * math.Pi * float64(b) / float64(nb)
		var c [][2]float64
		for k := range 3 {
			t := a + 2*math.Pi*float64(k)/3
			c = append(c, [2]float64{3 * math.Cos(t), 3 * math.Sin(t)})
		}
		return blob(rng, c, 0.5)
	},
	// Two blobs, one still, the other moving 5 units away while its
	// spread grows from 0.3 to 0.8.
	"spreading": func(b, nb int, rng *rand.Rand) ([2]float64, int) {
		f := float64(b) / float64(nb)
		if rng.IntN(2) == 0 {
			return blob(rng, [][2]float64{{0, 0}}, 0.5)
		}
		p, _ := blob(rng, [][2]float64{{3 + 5*f, 0}}, 0.3+0.5*f)
		return p, 1
	},
	// Two moons turning half a turn about their centre.
	"rotating": func(b, nb int, rng *rand.Rand) ([2]float64, int) {
		p, k := moon(rng)
		a := math.Pi * float64(b) / float64(nb)
		x, y := p[0]-0.5, p[1]-0.25
		return [2]float64{x*math.Cos(a) - y*math.Sin(a), x*math.Sin(a) + y*math.Cos(a)}, k
	},
}

func blob(rng *rand.Rand, c [][2]float64, sd float64) ([2]float64, int) {
	k := rng.IntN(len(c))
	return [2]float64{c[k][0] + sd*rng.NormFloat64(), c[k][1] + sd*rng.NormFloat64()}, k
}

// moon is scikit-learn's make_moons with noise 0.1.
func moon(rng *rand.Rand) ([2]float64, int) {
	t := math.Pi * rng.Float64()
	k := rng.IntN(2)
	var p [2]float64
	if k == 0 {
		p = [2]float64{math.Cos(t), math.Sin(t)}
	} else {
		p = [2]float64{1 - math.Cos(t), 0.5 - math.Sin(t)}
	}
	p[0] += 0.1 * rng.NormFloat64()
	p[1] += 0.1 * rng.NormFloat64()
	return p, k
}

// generate returns the nb batches of size rows of stream name, with
// anomalies planted uniformly in the box of the batch's rows widened by
// half its size on each side.
func generate(name string, nb, size int, seed uint64) []batch {
	gen := streams[name]
	rng := rand.New(rand.NewPCG(seed, 38))
	out := make([]batch, nb)
	na := int(anomalies * float64(size))
	for b := range out {
		x := mat.NewDense(size, 2, nil)
		lab := make([]int, size)
		lo, hi := [2]float64{math.Inf(1), math.Inf(1)}, [2]float64{math.Inf(-1), math.Inf(-1)}
		for i := range size - na {
			p, k := gen(b, nb, rng)
			x.SetRow(i, p[:])
			lab[i] = k
			for j := range 2 {
				lo[j], hi[j] = min(lo[j], p[j]), max(hi[j], p[j])
			}
		}
		for i := size - na; i < size; i++ {
			for j := range 2 {
				w := hi[j] - lo[j]
				x.Set(i, j, lo[j]-w/2+2*w*rng.Float64())
			}
			lab[i] = -1
		}
		// Shuffle, so that the anomalies are not the last rows.
		perm := rng.Perm(size)
		xs := mat.NewDense(size, 2, nil)
		ls := make([]int, size)
		for i, p := range perm {
			xs.SetRow(i, x.RawRowView(p))
			ls[i] = lab[p]
		}
		out[b] = batch{xs, ls}
	}
	return out
}

// learner is a method of the benchmark: learn takes batch b (after the
// batch was predicted), part is the partition predicting the next.
type learner struct {
	name  string
	learn func(b int) error
	part  func() cluster.Partition
}

func main() {
	out := flag.String("out", "", "directory of the streams and results")
	nb := flag.Int("batches", 100, "batches per stream")
	size := flag.Int("size", 1000, "rows per batch")
	only := flag.String("streams", "", "comma-separated streams (default all but the validation streams diverging, orbiting and spreading)")
	methods := flag.String("methods", "updated,forget,frozen,window", "comma-separated svclust methods (forget=RATE: a given forgetting rate)")
	check := flag.Bool("stationary-check", false, "compare the model updated over the stationary stream with one fit on all its rows, and count the changes of cluster ids")
	timing := flag.String("timing", "", "measure the CPU seconds of an update (forget auto) and of a refit on the window, alternately, on 10 batches of this stream")
	profile := flag.String("cpuprofile", "", "with -timing: instead of timing, write a CPU profile of the 30 updates (forget auto) after the first half to this file")
	flag.Parse()
	if *check {
		stationaryCheck(*nb, *size)
		return
	}
	if *timing != "" {
		pairedTiming(*timing, *nb, *size, *profile)
		return
	}
	if *out == "" {
		log.Fatal("-out is required")
	}
	if err := os.MkdirAll(*out, 0o755); err != nil {
		log.Fatal(err)
	}
	names := make([]string, 0, len(streams))
	for n := range streams {
		if !validation[n] {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	if *only != "" {
		names = strings.Split(*only, ",")
	}
	res, err := os.Create(filepath.Join(*out, "svclust.csv"))
	if err != nil {
		log.Fatal(err)
	}
	defer res.Close()
	w := bufio.NewWriter(res)
	defer w.Flush()
	fmt.Fprintln(w, "stream,method,batch,ari,seconds,auc")
	for si, name := range names {
		bs := generate(name, *nb, *size, uint64(si+1))
		if err := writeStream(filepath.Join(*out, name+".csv"), bs); err != nil {
			log.Fatal(err)
		}
		// The first batch's z-score scaler, kept for every batch.
		sc := dataset.FitScaler(bs[0].x, dataset.ScaleZScore)
		scaled := make([]*mat.Dense, len(bs))
		for b := range bs {
			scaled[b] = mat.DenseCopyOf(bs[b].x)
			sc.Transform(scaled[b])
		}
		for _, meth := range strings.Split(*methods, ",") {
			l := newLearner(meth, scaled)
			for b := range bs {
				if b > 0 {
					ari, auc := assess(l.part(), scaled[b], bs[b].labels)
					t0 := time.Now()
					if err := l.learn(b); err != nil {
						log.Fatalf("%s %s batch %d: %v", name, meth, b, err)
					}
					fmt.Fprintf(w, "%s,%s,%d,%.6f,%.6f,%.6f\n", name, meth, b, ari, time.Since(t0).Seconds(), auc)
				} else if err := l.learn(0); err != nil {
					log.Fatalf("%s %s batch 0: %v", name, meth, err)
				}
			}
			w.Flush()
			log.Printf("%s %s done", name, meth)
		}
	}
}

// newLearner returns the svclust method meth on the scaled batches.
func newLearner(meth string, scaled []*mat.Dense) *learner {
	var model *svclust.Model
	var part cluster.Partition
	fit := func(x *mat.Dense) error {
		m, err := svclust.Train(x, &svclust.Config{Seed: 1})
		if err != nil {
			return err
		}
		cl, err := cluster.Fit(m, x, nil)
		if err != nil {
			return err
		}
		model, part = m, cl.Partition
		return nil
	}
	update := func(x *mat.Dense, forget float64) error {
		m, err := svclust.Update(context.Background(), model, x, &svclust.UpdateConfig{Forget: forget})
		if err != nil {
			return err
		}
		cl, err := cluster.FitUpdate(m, x, nil)
		if err != nil {
			return err
		}
		model, part = m, cl.Partition
		return nil
	}
	l := &learner{name: meth, part: func() cluster.Partition { return part }}
	rate, isRate := strings.CutPrefix(meth, "forget=")
	if isRate {
		meth = "forget=" // a rate given: a sensitivity check of the automatic one
	}
	switch meth {
	case "updated", "forget", "forget=":
		forget := 0.0
		switch meth {
		case "forget":
			forget = svclust.ForgetAuto
		case "forget=":
			v, err := strconv.ParseFloat(rate, 64)
			if err != nil {
				log.Fatalf("forget=%s: %v", rate, err)
			}
			forget = v
		}
		l.learn = func(b int) error {
			if b == 0 {
				return fit(scaled[0])
			}
			return update(scaled[b], forget)
		}
	case "frozen":
		l.learn = func(b int) error {
			if b == 0 {
				return fit(scaled[0])
			}
			return nil
		}
	case "window":
		l.learn = func(b int) error {
			lo := max(0, b-window+1)
			x := mat.NewDense((b-lo+1)*scaled[0].RawMatrix().Rows, 2, nil)
			r := 0
			for k := lo; k <= b; k++ {
				n, _ := scaled[k].Dims()
				for i := range n {
					x.SetRow(r, scaled[k].RawRowView(i))
					r++
				}
			}
			return fit(x)
		}
	default:
		log.Fatalf("unknown method %q", meth)
	}
	return l
}

// assess returns the ARI of part's labels for the rows of x that are not
// planted anomalies, and the AUC of its outlier scores for the anomalies.
func assess(part cluster.Partition, x *mat.Dense, labels []int) (ari, auc float64) {
	pred, scores, err := part.PredictScores(nil, nil, x, 0)
	if err != nil {
		log.Fatal(err)
	}
	var t, p []int
	var pos, neg []float64
	for i, l := range labels {
		if l < 0 {
			pos = append(pos, scores[i])
			continue
		}
		neg = append(neg, scores[i])
		t, p = append(t, l), append(p, pred[i])
	}
	return metrics.AdjustedRand(t, p), aucOf(pos, neg)
}

// aucOf returns the probability that a positive scores above a negative,
// ties counting half.
func aucOf(pos, neg []float64) float64 {
	if len(pos) == 0 || len(neg) == 0 {
		return math.NaN()
	}
	slices.Sort(neg)
	var s float64
	for _, v := range pos {
		lo, _ := slices.BinarySearch(neg, v)
		hi := lo
		for hi < len(neg) && neg[hi] == v {
			hi++
		}
		s += float64(lo) + 0.5*float64(hi-lo)
	}
	return s / float64(len(pos)*len(neg))
}

// writeStream writes the batches as CSV: batch, label (−1 for an
// anomaly), x, y.
func writeStream(path string, bs []batch) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := bufio.NewWriter(f)
	fmt.Fprintln(w, "batch,label,x,y")
	for b, bt := range bs {
		for i, l := range bt.labels {
			fmt.Fprintf(w, "%d,%d,%.17g,%.17g\n", b, l, bt.x.At(i, 0), bt.x.At(i, 1))
		}
	}
	if err := w.Flush(); err != nil {
		return err
	}
	return f.Close()
}

// stationaryCheck updates a model over the nb batches of the stationary
// stream, tracking the clusters' ids, and compares its labels of every
// row with those of one fit on all the rows: the ARI of each against the
// truth and between them, the support vectors each keeps, the cost of
// the first fit and of an update (train and cluster, seconds), and the
// lineage's events over the updates.
func stationaryCheck(nb, size int) {
	bs := generate("stationary", nb, size, 99)
	sc := dataset.FitScaler(bs[0].x, dataset.ScaleZScore)
	all := mat.NewDense(nb*size, 2, nil)
	var truth []int
	scaled := make([]*mat.Dense, nb)
	for b := range bs {
		scaled[b] = mat.DenseCopyOf(bs[b].x)
		sc.Transform(scaled[b])
		for i := range size {
			all.SetRow(b*size+i, scaled[b].RawRowView(i))
		}
		truth = append(truth, bs[b].labels...)
	}
	t0 := time.Now()
	m, err := svclust.Train(scaled[0], &svclust.Config{Seed: 1})
	if err != nil {
		log.Fatal(err)
	}
	cl, err := cluster.Fit(m, scaled[0], nil)
	if err != nil {
		log.Fatal(err)
	}
	fitSec := time.Since(t0).Seconds()
	part, ids, next := cl.Partition, []int(nil), 0
	var upSec float64
	events, changed, maxSV := 0, 0, len(m.Alpha)
	probe := mat.DenseCopyOf(all.Slice(0, 10*size, 0, 2))
	before := part.Predict(nil, probe, 0)
	for b := 1; b < nb; b++ {
		t0 := time.Now()
		m2, err := svclust.Update(context.Background(), m, scaled[b], nil)
		if err != nil {
			log.Fatal(err)
		}
		cl2, err := cluster.FitUpdate(m2, scaled[b], nil)
		if err != nil {
			log.Fatal(err)
		}
		upSec += time.Since(t0).Seconds()
		l, err := cluster.Track(part, ids, cl2.Partition, next, 0)
		if err != nil {
			log.Fatal(err)
		}
		events += len(l.Born) + len(l.Died) + len(l.Merged) + len(l.Split)
		after := cl2.Partition.Predict(nil, probe, 0)
		moved := 0
		for i, c := range after {
			if c >= 0 {
				after[i] = l.IDs[c]
			}
			if after[i] != before[i] {
				moved++
			}
		}
		changed = max(changed, moved)
		before = after
		m, part, ids, next = m2, cl2.Partition, l.IDs, l.Next
		maxSV = max(maxSV, len(m.Alpha))
	}
	up := part.Predict(nil, all, 0)
	t0 = time.Now()
	full, err := svclust.Train(all, &svclust.Config{Seed: 1})
	if err != nil {
		log.Fatal(err)
	}
	fcl, err := cluster.Fit(full, all, nil)
	if err != nil {
		log.Fatal(err)
	}
	fullSec := time.Since(t0).Seconds()
	keep := func(p []int) ([]int, []int) {
		var a, b []int
		for i, l := range truth {
			if l >= 0 {
				a, b = append(a, l), append(b, p[i])
			}
		}
		return a, b
	}
	tu, pu := keep(up)
	_, pf := keep(fcl.Labels)
	fmt.Printf("rows %d in %d batches\n", nb*size, nb)
	fmt.Printf("updated: ARI %.4f vs truth, %d clusters, %d support vectors (budget %d, at most %d between updates)\n", metrics.AdjustedRand(tu, pu), part.Clusters(), len(m.Alpha), m.Choice.Budget, maxSV)
	fmt.Printf("one fit on all rows: ARI %.4f vs truth, %d clusters, %d support vectors (budget %d), %.2f s\n", metrics.AdjustedRand(tu, pf), fcl.Clusters, len(full.Alpha), full.Choice.Budget, fullSec)
	fmt.Printf("ARI between the two labelings: %.4f\n", metrics.AdjustedRand(pu, pf))
	fmt.Printf("first fit of %d rows: %.3f s; update of %d rows: %.3f s on average (train and cluster)\n", size, fitSec, size, upSec/float64(nb-1))
	fmt.Printf("lineage events over %d updates: %d; the most rows of the first 10 batches (of %d) whose stable id one update changed: %d\n", nb-1, events, 10*size, changed)
}

// cpu returns the CPU seconds the process has used, user and system.
func cpu() float64 {
	var r syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &r); err != nil {
		log.Fatal(err)
	}
	return float64(r.Utime.Sec+r.Stime.Sec) + float64(r.Utime.Usec+r.Stime.Usec)/1e6
}

// pairedTiming updates a model (forget auto) over the first half of the
// batches of stream name, then, for the next 10 batches, measures the CPU
// seconds of learning each batch by the update, by the refit on the
// window and by a fit of the batch alone, in turn, so that all see the
// same load; it prints each and their medians (the upper one of 10).
//
// With profile set it writes instead a CPU profile of the next 30
// updates alone.
func pairedTiming(name string, nb, size int, profile string) {
	bs := generate(name, nb, size, 1)
	sc := dataset.FitScaler(bs[0].x, dataset.ScaleZScore)
	scaled := make([]*mat.Dense, len(bs))
	for b := range bs {
		scaled[b] = mat.DenseCopyOf(bs[b].x)
		sc.Transform(scaled[b])
	}
	up, win := newLearner("forget", scaled), newLearner("window", scaled)
	half := nb / 2
	for b := 0; b < half; b++ {
		if err := up.learn(b); err != nil {
			log.Fatal(err)
		}
	}
	if profile != "" {
		f, err := os.Create(profile)
		if err != nil {
			log.Fatal(err)
		}
		if err := pprof.StartCPUProfile(f); err != nil {
			log.Fatal(err)
		}
		c0 := cpu()
		for b := half; b < min(nb, half+30); b++ {
			if err := up.learn(b); err != nil {
				log.Fatal(err)
			}
		}
		pprof.StopCPUProfile()
		fmt.Printf("30 updates: %.3f s CPU\n", cpu()-c0)
		if err := f.Close(); err != nil {
			log.Fatal(err)
		}
		return
	}
	var tu, tw, tf []float64
	for b := half; b < half+10; b++ {
		c0 := cpu()
		if err := up.learn(b); err != nil {
			log.Fatal(err)
		}
		c1 := cpu()
		if err := win.learn(b); err != nil {
			log.Fatal(err)
		}
		c2 := cpu()
		// A fit of the batch alone, the cost an update is bounded by.
		m, err := svclust.Train(scaled[b], &svclust.Config{Seed: 1})
		if err != nil {
			log.Fatal(err)
		}
		if _, err := cluster.Fit(m, scaled[b], nil); err != nil {
			log.Fatal(err)
		}
		c3 := cpu()
		tu, tw, tf = append(tu, c1-c0), append(tw, c2-c1), append(tf, c3-c2)
		fmt.Printf("batch %d: update %.3f s, window refit %.3f s, fit of the batch %.3f s (CPU)\n", b, c1-c0, c2-c1, c3-c2)
	}
	slices.Sort(tu)
	slices.Sort(tw)
	slices.Sort(tf)
	fmt.Printf("median: update %.3f s, window refit %.3f s (ratio %.3f), fit of the batch %.3f s (ratio %.3f)\n",
		tu[5], tw[5], tu[5]/tw[5], tf[5], tu[5]/tf[5])
}
