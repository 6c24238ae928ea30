package auto_test

import (
	"fmt"

	"github.com/svclust/svclust/auto"
	"github.com/svclust/svclust/dataset"
)

// Choose measures γ, the budget and C on a seeded sample of the rows; a
// setting given in Settings is kept as given.
func ExampleChoose() {
	ds, err := dataset.Generate(dataset.Moons, 1000, 1)
	if err != nil {
		panic(err)
	}
	n, d := ds.X.Dims()
	ch, smp, sub := auto.Choose(ds.X.RawMatrix().Data, n, d, auto.Settings{Seed: 1})
	fmt.Printf("γ automatic: %v, budget %d (%d balls), sample %d rows, subspace: %v\n",
		ch.GammaAuto, ch.Budget, ch.Cover, len(smp)/d, sub != nil)

	given, _, _ := auto.Choose(ds.X.RawMatrix().Data, n, d, auto.Settings{Gamma: 2, Seed: 1})
	fmt.Printf("γ given: %v, automatic: %v\n", given.Gamma, given.GammaAuto)
	// Output:
	// γ automatic: true, budget 603 (201 balls), sample 1000 rows, subspace: false
	// γ given: 2, automatic: false
}
