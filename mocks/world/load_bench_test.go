package world

import (
	"io/fs"
	"testing"

	"github.com/understudy/understudy/fixtures"
)

// BenchmarkLoadWorld is the world's share of the tool server's start.
func BenchmarkLoadWorld(b *testing.B) {
	sub, err := fs.Sub(fixtures.FS, "world")
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := LoadWorld(sub); err != nil {
			b.Fatal(err)
		}
	}
}
