package toolset

import "testing"

// BenchmarkBuiltin is the catalog's share of the tool server's start.
func BenchmarkBuiltin(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Builtin(); err != nil {
			b.Fatal(err)
		}
	}
}
