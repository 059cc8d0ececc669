package toolbench_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/understudy/understudy/evaltasks"
	"github.com/understudy/understudy/evaltasks/toolbench"
	"github.com/understudy/understudy/internal/golden"
	"github.com/understudy/understudy/toolset/retrieve"
)

// The retrieval report of the shipped queries is a golden file (-update
// rewrites it), docs/toolbench.md quotes its overall figures, and a run folder
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
	page, err := os.ReadFile("../../docs/toolbench.md")
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
			require.Contains(t, string(page), line, "the retrieval table of docs/toolbench.md is this run's")
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
	if k <= 0 { // a model retriever's whole selection
		return out
	}
	return out[:min(k, len(out))]
}

// On the generated slice, NDCG is over the queries whose relevant APIs
// the catalog holds: the others are skipped and counted by reason, and a
// query lacking only a non-relevant API is scored. A retriever that
// ranks the relevant APIs first scores 1 on every row, which it could not
// if skipped queries were averaged in as zeros.
func TestRetrievalSkipsUnscorable(t *testing.T) {
	u := mustUniverse(t)
	rv := toolbench.NewResolver(u.stack.Catalog)
	perfect := &fixed{name: "perfect", by: map[string][]string{}}
	skipped := map[string]int{}
	scored, missingOther := 0, 0
	for i := range u.queries {
		q := &u.queries[i]
		r, err := rv.Resolve(q)
		var ue *toolbench.UnresolvedError
		if errors.As(err, &ue) {
			skipped[ue.Reason()]++
			continue
		}
		require.NoError(t, err)
		scored++
		if len(r.Absent) > 0 {
			missingOther++
		}
		perfect.by[q.Text] = r.RelevantIDs()
	}
	require.Positive(t, missingOther)
	dir := t.TempDir()
	rep, err := toolbench.RunRetrieval(toolbench.RetrievalConfig{Queries: u.queries, Catalog: u.stack.Catalog, Retrievers: []retrieve.Retriever{perfect}, OutDir: dir})
	require.NoError(t, err)
	all := rep.Counts[0]
	require.Equal(t, len(u.queries), all.Planned)
	require.Equal(t, scored, all.Scored)
	require.Equal(t, skipped, all.Skipped)
	require.Equal(t, missingOther, all.MissingOther)
	for _, row := range rep.Rows {
		require.Equal(t, []float64{1, 1}, row.NDCG, row.Group)
	}
	require.Equal(t, scored, rep.Rows[0].N)
	var table strings.Builder
	require.NoError(t, rep.WriteTable(&table))
	require.Contains(t, table.String(), fmt.Sprintf("Scored %d of %d queries; skipped %d whose relevant APIs are not all in the catalog (API absent %d, tool absent %d). %d scored queries lack only an api_list entry that is not relevant",
		scored, len(u.queries), len(u.queries)-scored, skipped[toolbench.ReasonAPIAbsent], skipped[toolbench.ReasonToolAbsent], missingOther))
	require.Contains(t, table.String(), fmt.Sprintf("Ranked the whole catalog (%d APIs).", len(u.stack.Catalog.APIs())))
	lines := readLines(t, filepath.Join(dir, evaltasks.ResultsFile))
	require.Len(t, lines, len(u.queries))
	nSkipped := 0
	for _, l := range lines {
		var rk toolbench.Ranking
		require.NoError(t, json.Unmarshal([]byte(l), &rk))
		if rk.Skipped != "" {
			nSkipped++
			require.Nil(t, rk.NDCG, rk.Key)
			require.NotEmpty(t, rk.Error, rk.Key)
		}
	}
	require.Equal(t, len(u.queries)-scored, nSkipped)
}

// The pool: every API a query names, then a seeded sample of the rest,
// category by category, up to its size; the same seed, the same pool.
func TestRetrievalPool(t *testing.T) {
	u := mustUniverse(t)
	c := u.stack.Catalog
	rv := toolbench.NewResolver(c)
	var resolved []*toolbench.Resolved
	named := map[string]bool{}
	for i := range u.queries {
		r, _ := rv.Resolve(&u.queries[i])
		require.NotNil(t, r)
		resolved = append(resolved, r)
		for _, id := range append(r.RelevantIDs(), r.OfferedIDs()...) {
			named[id] = true
		}
	}
	total := len(c.APIs())
	n := (len(named) + total) / 2
	ids := func(co retrieve.Corpus) []string {
		var out []string
		for _, a := range co.APIs {
			out = append(out, a.ID())
		}
		return out
	}
	pool := toolbench.RetrievalPool(c, resolved, n, 1)
	require.Len(t, pool.APIs, n)
	require.Equal(t, n, pool.Index.Len())
	got := map[string]bool{}
	for _, id := range ids(pool) {
		got[id] = true
	}
	for id := range named {
		require.True(t, got[id], "the pool holds %s, which a query names", id)
	}
	require.Equal(t, ids(pool), ids(toolbench.RetrievalPool(c, resolved, n, 1)))
	require.NotEqual(t, ids(pool), ids(toolbench.RetrievalPool(c, resolved, n, 2)))
	// The rest is drawn category by category.
	perCat, restCat := map[string]int{}, map[string]int{}
	for _, a := range c.APIs() {
		if !named[a.ID()] {
			restCat[a.Tool.Category]++
			if got[a.ID()] {
				perCat[a.Tool.Category]++
			}
		}
	}
	rest := total - len(named)
	for cat, size := range restCat {
		require.InDelta(t, float64(size)*float64(n-len(named))/float64(rest), perCat[cat], 1, cat)
	}
	require.Len(t, toolbench.RetrievalPool(c, resolved, 1, 1).APIs, len(named), "a pool never drops a query's API")
	require.Len(t, toolbench.RetrievalPool(c, resolved, total+10, 1).APIs, total)

	rep, err := toolbench.RunRetrieval(toolbench.RetrievalConfig{Queries: u.queries, Catalog: c, Pool: n, Seed: 1, Names: []string{retrieve.NameBM25}})
	require.NoError(t, err)
	require.Equal(t, n, rep.Pool)
	var table strings.Builder
	require.NoError(t, rep.WriteTable(&table))
	require.Contains(t, table.String(), fmt.Sprintf("Ranked a pool of %d APIs (-pool %d", n, n))
	_, err = toolbench.RunRetrieval(toolbench.RetrievalConfig{Queries: u.queries, Catalog: c, Pool: n, Retrievers: []retrieve.Retriever{&fixed{name: "x"}}})
	require.Error(t, err)
}

func readLines(t *testing.T, path string) []string {
	t.Helper()
	f, err := os.ReadFile(path)
	require.NoError(t, err)
	return strings.Split(strings.TrimSpace(string(f)), "\n")
}

// TestRetrievalToolLLMSetup: ToolLLM's setup ranks the distinct api_list
// entries of the queries and counts every entry of a query's api_list
// relevant, so a retriever that ranks a query's api_list first scores 1
// even where the default setup (relevant APIs only) does not.
func TestRetrievalToolLLMSetup(t *testing.T) {
	u := mustUniverse(t)
	c := u.stack.Catalog
	rv := toolbench.NewResolver(c)
	offered := map[string][]string{}
	distinct := map[string]bool{}
	for i := range u.queries {
		// A query that cannot be scored still brings its APIs to the
		// corpus, as every query's api_list did to ToolLLM's.
		r, err := rv.Resolve(&u.queries[i])
		require.NotNil(t, r)
		if err == nil {
			offered[u.queries[i].Text] = r.OfferedIDs()
		}
		for _, id := range append(r.OfferedIDs(), r.RelevantIDs()...) {
			distinct[id] = true
		}
	}
	require.NotEmpty(t, offered)
	byOffered := func(co retrieve.Corpus) retrieve.Retriever {
		return &fixed{name: "api_list first", by: offered}
	}
	for _, tc := range []struct {
		setup     string
		pool      int
		wantMean  func(float64) bool
		wantWhat  string
		wantCount int
	}{
		{toolbench.SetupToolLLM, len(distinct), func(v float64) bool { return v > 0.999 }, "distinct api_list entries of the queries (-setup toolllm", len(distinct)},
		{toolbench.SetupDefault, len(c.APIs()), func(v float64) bool { return v < 0.999 }, "the whole catalog", len(c.APIs())},
	} {
		t.Run("setup="+tc.setup, func(t *testing.T) {
			rep, err := toolbench.RunRetrieval(toolbench.RetrievalConfig{Queries: u.queries, Catalog: c, Setup: tc.setup, Names: []string{retrieve.NameBM25}, Models: []func(retrieve.Corpus) retrieve.Retriever{byOffered}})
			require.NoError(t, err)
			require.Equal(t, tc.wantCount, rep.Pool)
			var table strings.Builder
			require.NoError(t, rep.WriteTable(&table))
			require.Contains(t, table.String(), tc.wantWhat)
			for _, row := range rep.Rows {
				if row.Retriever == "api_list first" && row.Group == "" {
					require.True(t, tc.wantMean(row.NDCG[len(row.NDCG)-1]), "NDCG@5 of the api_list-first ranking: %v", row.NDCG)
				}
			}
		})
	}
	_, err := toolbench.RunRetrieval(toolbench.RetrievalConfig{Queries: u.queries, Catalog: c, Setup: toolbench.SetupToolLLM, Pool: 100})
	require.ErrorContains(t, err, "no pool")
	_, err = toolbench.RunRetrieval(toolbench.RetrievalConfig{Queries: u.queries, Catalog: c, Setup: "bm25-only"})
	var ue *toolbench.UnknownSetupError
	require.ErrorAs(t, err, &ue)
}
