package cluster

import (
	"math"

	"gonum.org/v1/gonum/mat"

	"github.com/svclust/svclust"
)

// SupportRows returns the rows that stand for the support vectors of m
// when an updated model is clustered ([FitUpdate]): support vector i,
// in the data's space (m.SupportVectors), repeated round(B·|αᵢ|/Σ|α|)
// times for the B support vectors of m, so that a vector of average
// weight counts as one row. In the SGD every margin violation adds C/t to
// one coefficient (the budget's merges add theirs up), so |αᵢ| is the
// share of the rows learnt that vector i absorbed, decayed by the
// forgetting: the rows stand for the density the model holds, a region it
// remembers weighs as its support vectors do, and a vector with less than
// half the average weight (one a forgetting has faded) stands for no row.
// It returns nil for a model whose coefficients sum to 0.
func SupportRows(m *svclust.Model) *mat.Dense {
	var sum float64
	for _, a := range m.Alpha {
		sum += math.Abs(a)
	}
	if !(sum > 0) {
		return nil
	}
	b := len(m.Alpha)
	count := make([]int, b)
	total := 0
	for i, a := range m.Alpha {
		count[i] = int(math.Round(float64(b) * math.Abs(a) / sum))
		total += count[i]
	}
	if total == 0 {
		return nil
	}
	sv := m.SupportVectors()
	d := m.Dim()
	out := mat.NewDense(total, d, nil)
	r := 0
	for i, c := range count {
		for range c {
			copy(out.RawRowView(r), sv.RawRowView(i))
			r++
		}
	}
	return out
}

// FitUpdate clusters the rows x of a batch with m, a model that
// svclust.Update returned after learning them, as [Fit] does, but on the
// rows of x together with those of [SupportRows] (the model's support
// vectors, each counted by its weight): no earlier row is needed, and a
// region the model still holds keeps its cluster even when the batch has
// no row there, while one a forgetting has faded weighs less and less and
// then nothing. The Result is that of Fit on x and those rows, with
// Labels and OutlierScores cut to the rows of x; its Partition (and the
// outlier score it stores, its centres, spreads and fence) comes from all
// of them, and its counts (Equilibria, StripSize, MinSize) too. With
// Levels (nil method included) the trajectories run in two rounds: those
// from every 8th support vector to their end, and each other one until it
// comes within 0.1·ℓ of a point the first ones passed through, whose end
// it takes (about half the cost of the trajectories; the partitions of
// the generated kinds are those of the exact trajectories,
// TestAnchoredTrajectoriesKeepPartition), and the significance test of
// the ripples counts as the SGD's samples T every step the model took
// (m.Training.Steps), not the update's alone (m.Stats.Iterations): f
// averages them all, the last 2/λ or so with a forgetting rate λ (10
// updates' steps with svclust.ForgetAuto), where the update's steps over
// the rows clustered, batch and support rows, made the SGD's noise seem
// several times the data's and joined clusters of a1 that a fit keeps.
// It returns Fit's errors.
func FitUpdate(m *svclust.Model, x mat.Matrix, method Method) (*Result, error) {
	data, n, d, err := checkedRows(m, x)
	if err != nil {
		return nil, err
	}
	if c, ok := method.(*Levels); ok && c != nil || method == nil {
		a := Levels{}
		if c != nil {
			a = *c
		}
		a.anchored, a.allSteps = true, true
		method = &a
	}
	sr := SupportRows(m)
	if sr == nil {
		return Fit(m, x, method)
	}
	k, _ := sr.Dims()
	all := mat.NewDense(n+k, d, nil)
	copy(all.RawMatrix().Data, data)
	copy(all.RawMatrix().Data[n*d:], sr.RawMatrix().Data)
	r, err := Fit(m, all, method)
	if err != nil {
		return nil, err
	}
	r.Labels = r.Labels[:n:n]
	r.OutlierScores = r.OutlierScores[:n:n]
	return r, nil
}
