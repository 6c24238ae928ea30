package svclust

import (
	"encoding/json"
	"math"
	"slices"
	"strconv"
	"sync"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/svclust/svclust/dataset"
)

// TestAutoGammaSmallN: with at most B rows every row is a centre of
// AutoGamma, so no row has a nearest centre other than itself; γ must then
// come from the distances between the rows, not be the fallback 1. Scaling
// the data by s scales every distance by s, so γ must scale by 1/s² —
// exactly for s = 2, since multiplying by 2 is exact in binary floating
// point and so are the squared distances (×4) and the reciprocal (÷4).
func TestAutoGammaSmallN(t *testing.T) {
	x := mat.NewDense(5, 2, []float64{0, 0, 1, 0, 0, 3, 5, 5, 2, 7})
	for _, budget := range []int{5, 50, 0} {
		g := AutoGamma(x, budget, 1)
		var x2 mat.Dense
		x2.Scale(2, x)
		g2 := AutoGamma(&x2, budget, 1)
		if g == 1 || g2 != g/4 {
			t.Errorf("budget %d: γ = %v for x and %v for 2x; want γ(2x) = γ(x)/4 and not the fallback 1", budget, g, g2)
		}
		// The nearest-neighbour squared distances of the five rows are
		// {1, 1, 9, 13, 13}: (0,0)–(1,0) twice, (0,3)–(0,0), and
		// (5,5)–(2,7) twice. Their median 9 gives ρ = 3 in every draw of
		// centres, so γ = 1/(c·3)². AutoGamma forms c·(3 + … + 3)/10,
		// which may round differently from c·3: a few ulps are allowed.
		nn := nearestSq(x)
		slices.Sort(nn)
		r := autoGammaWidth * math.Sqrt(nn[len(nn)/2])
		if want := 1 / (r * r); math.Abs(g-want) > 4e-16*want {
			t.Errorf("budget %d: γ = %v, want 1/(c²·median nearest-neighbour distance²) = %v", budget, g, want)
		}
	}
	// Identical rows still give the documented 1.
	if g := AutoGamma(mat.NewDense(3, 2, []float64{1, 1, 1, 1, 1, 1}), 50, 1); g != 1 {
		t.Errorf("identical rows: γ = %v, want 1", g)
	}
}

// nearestSq returns the squared distance from each row of x to its nearest
// other row, by brute force.
func nearestSq(x *mat.Dense) []float64 {
	n, _ := x.Dims()
	out := make([]float64, n)
	for i := range n {
		out[i] = math.Inf(1)
		for j := range n {
			if i == j {
				continue
			}
			var s float64
			for k, v := range x.RawRowView(i) {
				d := v - x.At(j, k)
				s += d * d
			}
			out[i] = min(out[i], s)
		}
	}
	return out
}

// TestConcurrentPredictScore: a Model is documented safe for concurrent use
// by Score and Predict. Many goroutines call both, with several worker
// counts, on a freshly clustered model and on one loaded from JSON (whose
// search trees are built lazily by the first Predict, under a sync.Once);
// every result must equal the serial one bit for bit. Run under -race by
// .ci/run, the test also checks that they share no unsynchronised state.
func TestConcurrentPredictScore(t *testing.T) {
	ds := generated(t, dataset.Gauss3, 300)
	m, err := Train(ds.X, &Config{Budget: 20, Seed: 3, MaxIter: 3000})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := m.Cluster(ds.X, nil); err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	var loaded Model
	if err := json.Unmarshal(b, &loaded); err != nil {
		t.Fatal(err)
	}
	wantScore := m.Score(nil, ds.X, 1)
	wantLabels, err := m.Predict(nil, ds.X, 1)
	if err != nil {
		t.Fatal(err)
	}
	for name, model := range map[string]*Model{"trained": m, "loaded": &loaded} {
		var wg sync.WaitGroup
		errs := make(chan string, 64)
		for g := range 16 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				w := g%3 + 1
				if s := model.Score(nil, ds.X, w); !sameBits(s, wantScore) {
					errs <- "Score with " + strconv.Itoa(w) + " workers differs"
				}
				l, err := model.Predict(nil, ds.X, w)
				if err != nil || !slices.Equal(l, wantLabels) {
					errs <- "Predict with " + strconv.Itoa(w) + " workers differs"
				}
			}()
		}
		wg.Wait()
		close(errs)
		for e := range errs {
			t.Errorf("%s model: %s from the serial result", name, e)
		}
	}
}

func sameBits(a, b []float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if math.Float64bits(a[i]) != math.Float64bits(b[i]) {
			return false
		}
	}
	return true
}
