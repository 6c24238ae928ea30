package metrics_test

import (
	"encoding/json"
	"fmt"

	"gonum.org/v1/gonum/mat"

	"github.com/svclust/svclust/metrics"
)

func ExampleEvaluate() {
	// Nine 2-D points, row by row: two unit squares and one far point.
	x := []float64{
		0, 0, 0, 1, 1, 0, 1, 1, // class 0
		5, 5, 5, 6, 6, 5, 6, 6, // class 1
		10, 0, // class 1 too, but the clusterer calls it an outlier
	}
	truth := []int{0, 0, 0, 0, 1, 1, 1, 1, 1}
	pred := []int{0, 0, 0, 0, 1, 1, 1, 1, -1}

	// By hand: the outlier is its own group in the external indices, and
	// a pure one, so purity is 1. Of the 36 pairs, 12 share class and
	// cluster, 16 share a class and 12 a cluster: RI = (36+24−16−12)/36,
	// ARI = (12 − 16·12/36)/(14 − 16·12/36) = 10/13. The squares have
	// centroids (0.5, 0.5) and (5.5, 5.5), spreads √0.5 and distance √50:
	// DB = 2√0.5/√50 = 0.2. Each square has four pairs at distance 1 and
	// two at √2: compactness = 2·4·(4+2√2)/6/9.
	s := metrics.Evaluate(mat.NewDense(len(truth), 2, x), truth, pred)
	fmt.Printf("clusters:    %d\n", s.Clusters)
	fmt.Printf("purity:      %.4g\n", s.Purity)
	fmt.Printf("rand:        %.4g\n", s.Rand)
	fmt.Printf("ARI:         %.4g\n", s.ARI)
	fmt.Printf("NMI:         %.4g\n", s.NMI)
	fmt.Printf("DB:          %.4g (outlier left out)\n", s.DB)
	fmt.Printf("compactness: %.4g\n", s.Compactness)
	// Output:
	// clusters:    2
	// purity:      1
	// rand:        0.8889
	// ARI:         0.7692
	// NMI:         0.8317
	// DB:          0.2 (outlier left out)
	// compactness: 1.012
}

func ExampleValidity_MarshalJSON() {
	// Without ground truth the external indices are NaN, which JSON
	// writes as null.
	s := metrics.Evaluate(mat.NewDense(4, 1, []float64{0, 1, 5, 6}), nil, []int{0, 0, 1, 1})
	b, err := json.Marshal(s)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(string(b))
	// Output:
	// {"purity":null,"rand":null,"ari":null,"nmi":null,"db":0.2,"compactness":1,"clusters":2}
}

// ExampleAssess scores a clustering against compactly stored classes,
// computing Davies–Bouldin but not compactness.
func ExampleAssess() {
	x := mat.NewDense(6, 1, []float64{0, 0.1, 0.2, 5, 5.1, 5.2})
	truth := metrics.NewTruth([]int{0, 0, 0, 1, 1, 1}, 2)
	v := metrics.Assess(x, truth, []int{0, 0, 0, 1, 1, -1}, metrics.Indices{DaviesBouldin: true})
	fmt.Printf("ARI %.3f, clusters %d, DB %.3f, compactness %v\n", v.ARI, v.Clusters, v.DB, v.Compactness)
	// Output:
	// ARI 0.706, clusters 2, DB 0.024, compactness NaN
}
