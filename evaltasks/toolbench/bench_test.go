package toolbench_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/understudy/understudy/evaltasks/toolbench"
	"github.com/understudy/understudy/internal/tbgen"
	"github.com/understudy/understudy/toolset/loader"
	"github.com/understudy/understudy/toolset/retrieve"
)

// BenchmarkRetrieval times one query of each retriever, and resolving a
// query, on generated trees of two sizes: the larger one is the baseline
// the smaller is measured against in the same run. Linear costs grow with
// the tree (about 4x from 1,000 to 4,000 tools); a cost growing with its
// square would show 16x.
//
//	go test ./evaltasks/toolbench -run XXX -bench Retrieval -benchtime 200x
func BenchmarkRetrieval(b *testing.B) {
	for _, n := range []int{1000, 4000} {
		dir, _ := tbgen.WriteTB(b, tbgen.Options{Tools: n, Seed: 1, Compact: true})
		cat, err := loader.Load([]string{filepath.Join(dir, "tools")}, false)
		if err != nil {
			b.Fatal(err)
		}
		abs, err := filepath.Abs(filepath.Join(dir, "queries"))
		if err != nil {
			b.Fatal(err)
		}
		qs, err := toolbench.LoadQueries(os.DirFS("/"), strings.TrimPrefix(filepath.ToSlash(abs), "/"))
		if err != nil {
			b.Fatal(err)
		}
		corpus := retrieve.CatalogCorpus(cat)
		b.Run(fmt.Sprintf("tools=%d", n), func(b *testing.B) {
			for _, name := range retrieve.Names() {
				r, err := corpus.New(name)
				if err != nil {
					b.Fatal(err)
				}
				b.Run(name, func(b *testing.B) {
					for i := 0; i < b.N; i++ {
						r.Retrieve(qs[i%len(qs)].Text, 5)
					}
				})
			}
			rv := toolbench.NewResolver(cat)
			b.Run("resolve", func(b *testing.B) {
				for i := 0; i < b.N; i++ {
					_, _ = rv.Resolve(&qs[i%len(qs)])
				}
			})
		})
	}
}
