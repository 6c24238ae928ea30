package svclust_test

import (
	"os"
	"strings"
	"testing"
)

// TestReadmeLibraryExample: the README's library code is the body of
// Example (example_test.go), which go test runs and checks, unindented by
// one tab, so that the README shows code that compiles and runs.
func TestReadmeLibraryExample(t *testing.T) {
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	src, err := os.ReadFile("example_test.go")
	if err != nil {
		t.Fatal(err)
	}
	_, body, ok := strings.Cut(string(src), "\nfunc Example() {\n")
	if !ok {
		t.Fatal("example_test.go has no func Example")
	}
	body, _, _ = strings.Cut(body, "\t// Output:")
	var want strings.Builder
	for _, l := range strings.Split(strings.TrimRight(body, "\n"), "\n") {
		want.WriteString(strings.TrimPrefix(l, "\t") + "\n")
	}
	_, lib, ok := strings.Cut(string(readme), "\n## Library\n")
	if !ok {
		t.Fatal("README.md has no Library section")
	}
	_, code, ok := strings.Cut(lib, "```go\n")
	code, _, ok2 := strings.Cut(code, "```\n")
	if !ok || !ok2 {
		t.Fatal("README.md's Library section has no Go code block")
	}
	if code != want.String() {
		t.Errorf("README.md's library code is not the body of Example:\n%s\nwant:\n%s", code, want.String())
	}
}
