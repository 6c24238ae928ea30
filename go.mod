module github.com/svclust/svclust

go 1.24

require gonum.org/v1/gonum v0.17.0 // indirect
