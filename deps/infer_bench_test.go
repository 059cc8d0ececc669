package deps

import (
	"testing"

	"github.com/understudy/understudy/toolset/loader"
)

// BenchmarkInferBuiltin is inference's share of the tool server's start.
func BenchmarkInferBuiltin(b *testing.B) {
	c, err := loader.Builtin()
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if len(Infer(c)) == 0 {
			b.Fatal("no inferred edge")
		}
	}
}
