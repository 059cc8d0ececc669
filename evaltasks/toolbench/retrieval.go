package toolbench

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"text/tabwriter"

	"github.com/understudy/understudy/evaltasks"
	"github.com/understudy/understudy/toolset"
	"github.com/understudy/understudy/toolset/retrieve"
)

// RetrievalK are the cut-offs of ToolLLM's retrieval table (NDCG@1, NDCG@5).
var RetrievalK = []int{1, 5}

// RetrievalConfig is one run of the retrieval suite: every query's text
// against the whole catalog, scored against its relevant APIs.
type RetrievalConfig struct {
	// Queries to rank for; nil loads the shipped files.
	Queries []Query
	Catalog *toolset.Catalog
	// Retrievers to compare; nil runs every built-in one.
	Retrievers []retrieve.Retriever
	// OutDir receives results.jsonl (each query's ranking per retriever)
	// and the reports; Overwrite replaces an earlier run there.
	OutDir    string
	Overwrite bool
}

// Ranking is one query's line of the retrieval results.
type Ranking struct {
	Key      string               `json:"key"`
	Group    string               `json:"group"`
	Query    string               `json:"query"`
	Relevant []string             `json:"relevant"`
	Ranked   map[string][]string  `json:"ranked"`
	NDCG     map[string][]float64 `json:"ndcg"` // per retriever, at RetrievalK
	Error    string               `json:"error,omitempty"`
}

// RetrievalReport is the table of ToolLLM's Table 2 for our queries:
// mean NDCG@1 and @5 per retriever, overall and per query file.
type RetrievalReport struct {
	Suite   string         `json:"suite"`
	Queries string         `json:"queries"`
	K       []int          `json:"k"`
	Rows    []RetrievalRow `json:"rows"`
}

// RetrievalRow is one retriever's scores on one set of queries.
type RetrievalRow struct {
	Retriever string    `json:"retriever"`
	Group     string    `json:"group,omitempty"`
	N         int       `json:"n"`
	NDCG      []float64 `json:"ndcg"` // at K
}

// RunRetrieval ranks the catalog for every query with every retriever.
// A query whose relevant APIs are not in the catalog scores 0 for all.
func RunRetrieval(cfg RetrievalConfig) (*RetrievalReport, error) {
	if cfg.Catalog == nil {
		return nil, errors.New("toolbench: retrieval needs a catalog")
	}
	qs := cfg.Queries
	if qs == nil {
		var err error
		if qs, err = ShippedQueries(); err != nil {
			return nil, err
		}
	}
	rs := cfg.Retrievers
	if rs == nil {
		for _, n := range retrieve.Names() {
			r, err := retrieve.New(n, cfg.Catalog)
			if err != nil {
				return nil, err
			}
			rs = append(rs, r)
		}
	}
	kmax := slices.Max(RetrievalK)
	var rankings []*Ranking
	for _, q := range sortedQueries(qs) {
		rk := &Ranking{Key: q.Key(), Group: q.Group, Query: q.Text, Ranked: map[string][]string{}, NDCG: map[string][]float64{}}
		res, err := q.Resolve(cfg.Catalog)
		if err != nil {
			rk.Error = err.Error()
		} else {
			rk.Relevant = res.RelevantIDs()
		}
		for _, r := range rs {
			ids := retrieve.IDs(r.Retrieve(q.Text, kmax))
			rk.Ranked[r.Name()] = ids
			for _, k := range RetrievalK {
				rk.NDCG[r.Name()] = append(rk.NDCG[r.Name()], retrieve.NDCG(ids, rk.Relevant, k))
			}
		}
		rankings = append(rankings, rk)
	}
	rep := &RetrievalReport{Suite: "retrieval", Queries: Digest(qs), K: RetrievalK}
	groups := map[string][]*Ranking{}
	for _, rk := range rankings {
		groups[rk.Group] = append(groups[rk.Group], rk)
	}
	for _, r := range rs {
		rep.Rows = append(rep.Rows, meanRow(r.Name(), "", rankings))
		for _, g := range slices.Sorted(maps.Keys(groups)) {
			rep.Rows = append(rep.Rows, meanRow(r.Name(), g, groups[g]))
		}
	}
	if cfg.OutDir != "" {
		names := make([]string, len(rs))
		for i, r := range rs {
			names[i] = r.Name()
		}
		files, _, err := evaltasks.OpenRunFiles(cfg.OutDir, false, cfg.Overwrite, map[string]any{"suite": "retrieval", "retrievers": names, "queries": rep.Queries})
		if err != nil {
			return rep, err
		}
		defer files.Close()
		for _, rk := range rankings {
			if err := files.Append(rk); err != nil {
				return rep, err
			}
		}
		js, err := rep.JSON()
		if err != nil {
			return rep, err
		}
		if err := files.WriteReports(js, rep.Markdown()); err != nil {
			return rep, err
		}
	}
	return rep, nil
}

func meanRow(retriever, group string, rks []*Ranking) RetrievalRow {
	row := RetrievalRow{Retriever: retriever, Group: group, N: len(rks), NDCG: make([]float64, len(RetrievalK))}
	for _, rk := range rks {
		for i, v := range rk.NDCG[retriever] {
			row.NDCG[i] += v
		}
	}
	for i := range row.NDCG {
		if row.N > 0 {
			row.NDCG[i] /= float64(row.N)
		}
	}
	return row
}

// JSON is the report's canonical encoding.
func (r *RetrievalReport) JSON() ([]byte, error) { return evaltasks.EncodeReport(r) }

// WriteTable prints NDCG per retriever and query file, in percent as
// ToolLLM's Table 2 does.
func (r *RetrievalReport) WriteTable(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	head := "Retriever\tQueries"
	for _, k := range r.K {
		head += fmt.Sprintf("\tNDCG@%d", k)
	}
	fmt.Fprintln(tw, head+"\tn")
	for _, row := range r.Rows {
		g := row.Group
		if g == "" {
			g = "all"
		}
		line := row.Retriever + "\t" + g
		for _, v := range row.NDCG {
			line += fmt.Sprintf("\t%.1f", 100*v)
		}
		fmt.Fprintf(tw, "%s\t%d\n", line, row.N)
	}
	return tw.Flush()
}

// Markdown is report.md of a retrieval run.
func (r *RetrievalReport) Markdown() []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "# Retrieval report\n\nQueries `%s`. NDCG with binary relevance against each query's relevant APIs, "+
		"over the whole catalog, in percent as ToolLLM's Table 2 prints it.\n\n", r.Queries)
	b.WriteString("| Retriever | Queries |")
	for _, k := range r.K {
		fmt.Fprintf(&b, " NDCG@%d |", k)
	}
	b.WriteString(" n |\n|---|---|")
	for range r.K {
		b.WriteString("---:|")
	}
	b.WriteString("---:|\n")
	for _, row := range r.Rows {
		g := row.Group
		if g == "" {
			g = "**all**"
		}
		fmt.Fprintf(&b, "| %s | %s |", row.Retriever, g)
		for _, v := range row.NDCG {
			fmt.Fprintf(&b, " %.1f |", 100*v)
		}
		fmt.Fprintf(&b, " %d |\n", row.N)
	}
	return b.Bytes()
}
