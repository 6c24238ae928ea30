package dataset_test

import (
	"fmt"
	"log"
	"os"
	"strings"

	"github.com/svclust/svclust/dataset"
)

func ExampleRead() {
	const in = `sepal_length,sepal_width,label
5.1,3.5,Iris-setosa
7.0,3.2,Iris-versicolor
6.3,3.3,Iris-virginica
4.9,3.0,Iris-setosa
`
	ds, err := dataset.Read(strings.NewReader(in), dataset.ReadOptions{Name: "iris.csv"})
	if err != nil {
		log.Fatal(err)
	}
	r, c := ds.X.Dims()
	fmt.Println(r, "rows,", c, "features:", ds.Names)
	fmt.Println("labels:", ds.Labels)
	fmt.Println("classes:", ds.Classes)
	// Output:
	// 4 rows, 2 features: [sepal_length sepal_width]
	// labels: [0 1 2 0]
	// classes: [Iris-setosa Iris-versicolor Iris-virginica]
}

func ExampleRead_error() {
	const in = "x1,x2,label\n1,2,0\n3,four,1\n"
	_, err := dataset.Read(strings.NewReader(in), dataset.ReadOptions{Name: "data.csv"})
	fmt.Println(err)
	// Output:
	// data.csv:3:2: not a number: "four"
}

func ExampleFitScaler() {
	ds, err := dataset.Read(strings.NewReader("a,b\n1,10\n2,10\n3,10\n"), dataset.ReadOptions{})
	if err != nil {
		log.Fatal(err)
	}
	s := dataset.FitScaler(ds.X, dataset.ScaleMinMax)
	s.Transform(ds.X)
	for i := range 3 {
		fmt.Printf("%.4g\n", ds.X.RawRowView(i))
	}
	// Output:
	// [0 0]
	// [0.5 0]
	// [1 0]
}

func ExampleGenerate() {
	ds, err := dataset.Generate(dataset.Gauss3, 5, 1)
	if err != nil {
		log.Fatal(err)
	}
	if err := ds.WriteCSV(os.Stdout); err != nil {
		log.Fatal(err)
	}
	// Output:
	// x1,x2,label
	// 3.6395886800861716,-0.4694196350769149,1
	// 0.4531788834840067,0.22198182382936665,0
	// 2.3450778895797577,3.684335024113664,2
	// 3.951958823526105,-0.5065474322928605,1
	// -0.39161938580803635,0.33047222465013115,0
}

func ExampleAllKinds() {
	for _, kind := range dataset.AllKinds() {
		ds, err := dataset.Generate(kind, 1000, 1)
		if err != nil {
			log.Fatal(err)
		}
		_, d := ds.X.Dims()
		fmt.Printf("%-10s d=%d, classes=%d\n", kind, d, len(ds.Classes))
	}
	// Output:
	// moons      d=2, classes=2
	// nested     d=2, classes=3
	// gauss3     d=2, classes=3
	// gauss4     d=2, classes=4
	// circles    d=2, classes=2
	// varied     d=2, classes=3
	// aniso      d=2, classes=3
	// spirals3   d=2, classes=3
	// grid25     d=2, classes=25
	// hd8        d=8, classes=5
	// noisyblobs d=2, classes=5
	// unbal      d=2, classes=2
	// line3      d=2, classes=3
	// cube       d=3, classes=1
	// touch20    d=2, classes=20
	// birch      d=2, classes=100
}

// ExampleRead_drop reads data with missing values, skipping their rows.
func ExampleRead_drop() {
	in := "x1,x2\n1,2\n3,NA\n5,6\n,8\n9,10\n"
	ds, err := dataset.Read(strings.NewReader(in), dataset.ReadOptions{NA: dataset.NADrop})
	if err != nil {
		log.Fatal(err)
	}
	n, _ := ds.X.Dims()
	fmt.Println(n, "rows kept; data rows dropped:", ds.Dropped)
	_, err = dataset.Read(strings.NewReader(in), dataset.ReadOptions{Name: "in.csv"})
	fmt.Println(err)
	// Output:
	// 3 rows kept; data rows dropped: [1 3]
	// in.csv:3:2: missing value "NA"; 2 rows have missing values, in 2 columns ("x1", "x2")
}
