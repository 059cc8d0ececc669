package loader_test

import (
	"testing"

	"github.com/understudy/understudy/toolset/loader"
)

// BenchmarkBuiltin is the catalog's share of the tool server's start.
func BenchmarkBuiltin(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := loader.Builtin(); err != nil {
			b.Fatal(err)
		}
	}
}
