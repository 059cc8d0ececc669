package tbgen

import "testing"

// BenchmarkGenerateFull writes StableToolBench's full-size tree (12,301
// tool files, 44,692 APIs, 765 queries) into a temporary folder.
func BenchmarkGenerateFull(b *testing.B) {
	dir := b.TempDir()
	for b.Loop() {
		if _, err := Write(dir, Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkGenerateFullInMemory builds the full-size universe without
// writing it: the share of BenchmarkGenerateFull that is not rendering
// and file I/O.
func BenchmarkGenerateFullInMemory(b *testing.B) {
	for b.Loop() {
		if _, err := Generate(Options{}); err != nil {
			b.Fatal(err)
		}
	}
}
