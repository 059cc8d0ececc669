package toolbench_test

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/understudy/understudy/evaltasks"
	"github.com/understudy/understudy/evaltasks/toolbench"
	"github.com/understudy/understudy/internal/golden"
	"github.com/understudy/understudy/toolset/retrieve"
)

// The retrieval report of the shipped queries is a golden file (-update
// rewrites it), the README quotes its overall figures, and a run folder
// holds every query's rankings.
func TestRetrievalReport(t *testing.T) {
	st := mustStack(t)
	dir := t.TempDir()
	rep, err := toolbench.RunRetrieval(toolbench.RetrievalConfig{Catalog: st.Catalog, OutDir: dir})
	require.NoError(t, err)
	golden.Check(t, "testdata/retrieval.md", rep.Markdown())
	for _, f := range []string{evaltasks.ResultsFile, evaltasks.ReportFile, evaltasks.MarkdownFile} {
		_, err := os.Stat(filepath.Join(dir, f))
		require.NoError(t, err, f)
	}
	readme, err := os.ReadFile("../../README.md")
	require.NoError(t, err)
	rows := 0
	for _, row := range rep.Rows {
		require.Len(t, row.NDCG, 2)
		for _, v := range row.NDCG {
			require.True(t, v >= 0 && v <= 1, "%s %s: %v", row.Retriever, row.Group, row.NDCG)
		}
		if row.Group == "" {
			rows++
			line := fmt.Sprintf("| %s | %.1f | %.1f |", row.Retriever, 100*row.NDCG[0], 100*row.NDCG[1])
			require.Contains(t, string(readme), line, "the README's retrieval table is this run's")
		}
	}
	require.Equal(t, len(retrieve.Names()), rows)
	// A second run into the folder must be told to overwrite.
	_, err = toolbench.RunRetrieval(toolbench.RetrievalConfig{Catalog: st.Catalog, OutDir: dir})
	var rde *evaltasks.RunDirError
	require.ErrorAs(t, err, &rde)
	_, err = toolbench.RunRetrieval(toolbench.RetrievalConfig{Catalog: st.Catalog, OutDir: dir, Overwrite: true})
	require.NoError(t, err)
}

// A retriever that returns the relevant APIs first scores 1; one that
// returns nothing scores 0.
func TestRetrievalBounds(t *testing.T) {
	st := mustStack(t)
	qs, err := toolbench.ShippedQueries()
	require.NoError(t, err)
	perfect := &fixed{name: "perfect", by: map[string][]string{}}
	for _, q := range qs {
		r, err := q.Resolve(st.Catalog)
		require.NoError(t, err)
		perfect.by[q.Text] = r.RelevantIDs()
	}
	rep, err := toolbench.RunRetrieval(toolbench.RetrievalConfig{Catalog: st.Catalog, Retrievers: []retrieve.Retriever{perfect, &fixed{name: "none"}}})
	require.NoError(t, err)
	for _, row := range rep.Rows {
		want := 0.0
		if row.Retriever == "perfect" {
			want = 1
		}
		require.Equal(t, []float64{want, want}, row.NDCG, "%s %s", row.Retriever, row.Group)
	}
}

type fixed struct {
	name string
	by   map[string][]string
}

func (f *fixed) Name() string { return f.name }

func (f *fixed) Retrieve(q string, k int) []retrieve.Hit {
	var out []retrieve.Hit
	for _, id := range f.by[q] {
		out = append(out, retrieve.Hit{ID: id, Score: 1})
	}
	return out[:min(k, len(out))]
}
