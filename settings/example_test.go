package settings_test

import (
	"context"
	"fmt"
	"log"

	"github.com/svclust/svclust/dataset"
	"github.com/svclust/svclust/settings"
)

// ExampleSettings_Fit trains and clusters generated data with the default
// settings of svclust fit, as the command, svclust-beam and the Python
// package do.
func ExampleSettings_Fit() {
	ds, err := dataset.Generate(dataset.Gauss3, 300, 1)
	if err != nil {
		log.Fatal(err)
	}
	st := settings.Default()
	if err := st.Validate(); err != nil {
		log.Fatal(err)
	}
	dataset.FitScaler(ds.X, dataset.ScaleZScore).Transform(ds.X)
	_, cl, err := st.Fit(context.Background(), ds.X, nil)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(cl.Clusters, "clusters of sizes", settings.Sizes(cl.Labels, cl.Clusters))
	// Output:
	// 3 clusters of sizes [100 100 100]
}
