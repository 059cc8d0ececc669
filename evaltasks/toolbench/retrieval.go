package toolbench

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"text/tabwriter"

	"github.com/understudy/understudy/evaltasks"
	"github.com/understudy/understudy/evaltasks/sampling"
	"github.com/understudy/understudy/toolset"
	"github.com/understudy/understudy/toolset/retrieve"
)

// RetrievalK are the cut-offs of ToolLLM's retrieval table (NDCG@1, NDCG@5).
var RetrievalK = []int{1, 5}

// Retrieval setups: what is ranked and what counts as relevant.
const (
	// SetupDefault ranks the whole catalog (or a -pool of it) and scores
	// against each query's relevant APIs.
	SetupDefault = ""
	// SetupToolLLM is how ToolLLM computed its Table 2 (ToolBench's
	// retrieval scripts): the corpus is the distinct api_list entries of
	// the queries, and every entry of a query's api_list is relevant to
	// it, not only its relevant APIs.
	SetupToolLLM = "toolllm"
)

// ToolBenchPool is the number of APIs ToolBench collected (ToolLLM §2.1),
// the pool its retrieval table (Table 2) ranks.
const ToolBenchPool = 16464

// RetrievalConfig is one run of the retrieval suite: every query's text
// against the catalog (or a pool of its APIs), scored against its
// relevant APIs.
type RetrievalConfig struct {
	// Queries to rank for; nil loads the shipped files.
	Queries []Query
	// Sample keeps at most this many queries (0: all), chosen by Seed and
	// stratified by query file and category (see Sample).
	Sample  int
	Seed    uint64
	Catalog *toolset.Catalog
	// Names are the built-in retrievers to compare, built over what is
	// ranked (the catalog or the pool); nil runs every one.
	Names []string
	// Retrievers, when set, are used as they are instead of Names (they
	// must rank the whole catalog; no Pool).
	Retrievers []retrieve.Retriever
	// Models are retrievers with a model in the loop (Self-Assist,
	// AnyTool's search), built over what is ranked and run after the
	// others; each returns its whole selection, which the report scores
	// for accuracy and recall too. A model fault stops the run.
	Models []func(retrieve.Corpus) retrieve.Retriever
	// Pool, when positive, ranks a pool of that many of the catalog's APIs
	// instead of all of them (ToolBenchPool compares with ToolLLM's Table
	// 2); see RetrievalPool. Seed chooses the pool too.
	Pool int
	// Setup is SetupDefault or SetupToolLLM (no Pool with it).
	Setup string
	// OutDir receives results.jsonl (each query's ranking per retriever)
	// and the reports; Overwrite replaces an earlier run there.
	OutDir    string
	Overwrite bool
}

// Ranking is one query's line of the retrieval results.
type Ranking struct {
	Key      string              `json:"key"`
	Group    string              `json:"group"`
	Query    string              `json:"query"`
	Relevant []string            `json:"relevant"`
	Ranked   map[string][]string `json:"ranked,omitempty"`
	// Selected is a model retriever's whole selection, when longer than Ranked.
	Selected map[string][]string  `json:"selected,omitempty"`
	NDCG     map[string][]float64 `json:"ndcg,omitempty"` // per retriever, at RetrievalK
	// Absent are the query's APIs the catalog lacks. A query with an
	// absent relevant API is skipped (Skipped is its reason, Error the
	// details): it is not ranked and in no mean.
	Absent  []Absence `json:"absent,omitempty"`
	Skipped string    `json:"skipped,omitempty"`
	Error   string    `json:"error,omitempty"`
}

// RetrievalReport is the table of ToolLLM's Table 2 for our queries:
// mean NDCG@1 and @5 per retriever, overall and per query file, over the
// queries whose relevant APIs the catalog holds.
type RetrievalReport struct {
	Suite   string `json:"suite"`
	Queries string `json:"queries"`
	Sample  int    `json:"sample,omitempty"`
	Seed    uint64 `json:"seed,omitempty"`
	K       []int  `json:"k"`
	// Pool is the number of APIs ranked: the whole catalog, or the pool
	// of PoolTarget APIs asked for (more when the queries' own APIs
	// outnumber it).
	Pool       int            `json:"pool"`
	PoolTarget int            `json:"pool_target,omitempty"`
	Setup      string         `json:"setup,omitempty"`
	Counts     []QueryCounts  `json:"counts"`
	Rows       []RetrievalRow `json:"rows"`
}

// QueryCounts say which queries of a set were scored.
type QueryCounts struct {
	Group   string `json:"group,omitempty"`
	Planned int    `json:"planned"`
	// Scored queries have every relevant API in the catalog; Skipped
	// counts the others by reason (ReasonToolAbsent, ReasonAPIAbsent).
	Scored  int            `json:"scored"`
	Skipped map[string]int `json:"skipped,omitempty"`
	// MissingOther counts the scored queries that lack only api_list
	// entries that are not relevant.
	MissingOther int `json:"missing_other,omitempty"`
}

// RetrievalRow is one retriever's scores on one set of queries.
type RetrievalRow struct {
	Retriever string    `json:"retriever"`
	Group     string    `json:"group,omitempty"`
	N         int       `json:"n"`
	NDCG      []float64 `json:"ndcg"` // at K
	// Accuracy and Recall, for model retrievers (see modelScores).
	Model    bool    `json:"model,omitempty"`
	Accuracy float64 `json:"accuracy,omitempty"`
	Recall   float64 `json:"recall,omitempty"`
}

// RunRetrieval ranks the catalog (or the pool) for every query whose
// relevant APIs it holds, with every retriever. A query whose relevant
// API is absent is skipped and counted with its reason: it cannot score
// anything but 0, which would measure the tree, not the retriever.
func RunRetrieval(cfg RetrievalConfig) (*RetrievalReport, error) {
	if cfg.Catalog == nil {
		return nil, errors.New("toolbench: retrieval needs a catalog")
	}
	if cfg.Pool > 0 && cfg.Retrievers != nil {
		return nil, errors.New("toolbench: a retrieval pool needs retrievers by name, built over the pool")
	}
	switch cfg.Setup {
	case SetupDefault:
	case SetupToolLLM:
		if cfg.Pool > 0 || cfg.Retrievers != nil {
			return nil, errors.New("toolbench: ToolLLM's setup ranks the queries' api_list entries: no pool, and retrievers by name")
		}
	default:
		return nil, &UnknownSetupError{Name: cfg.Setup}
	}
	qs := cfg.Queries
	if qs == nil {
		var err error
		if qs, err = ShippedQueries(); err != nil {
			return nil, err
		}
	}
	rep := &RetrievalReport{Suite: "retrieval", Queries: Digest(qs), K: RetrievalK, Sample: cfg.Sample, PoolTarget: cfg.Pool, Setup: cfg.Setup}
	if cfg.Sample > 0 || cfg.Pool > 0 {
		rep.Seed = cfg.Seed
	}
	qs = sortedQueries(Sample(qs, cfg.Sample, cfg.Seed))

	resolver := NewResolver(cfg.Catalog)
	var rankings []*Ranking
	var resolved []*Resolved
	for i := range qs {
		q := &qs[i]
		rk := &Ranking{Key: q.Key(), Group: q.Group, Query: q.Text}
		res, err := resolver.Resolve(q)
		if res != nil {
			rk.Relevant, rk.Absent = res.RelevantIDs(), res.Absent
			if cfg.Setup == SetupToolLLM {
				rk.Relevant = res.OfferedIDs()
			}
		}
		var ue *UnresolvedError
		switch {
		case errors.As(err, &ue):
			rk.Skipped, rk.Error = ue.Reason(), ue.Error()
		case err != nil:
			return nil, err
		}
		rankings = append(rankings, rk)
		if res != nil {
			resolved = append(resolved, res)
		}
	}

	corpus := retrieve.CatalogCorpus(cfg.Catalog)
	switch {
	case cfg.Pool > 0:
		corpus = RetrievalPool(cfg.Catalog, resolved, cfg.Pool, cfg.Seed)
	case cfg.Setup == SetupToolLLM:
		corpus = RetrievalPool(cfg.Catalog, resolved, 0, cfg.Seed)
	}
	rep.Pool = len(corpus.APIs)
	rs := cfg.Retrievers
	if rs == nil {
		names := cfg.Names
		if names == nil {
			names = retrieve.Names()
		}
		for _, n := range names {
			r, err := corpus.New(n)
			if err != nil {
				return nil, err
			}
			rs = append(rs, r)
		}
	}

	kmax := slices.Max(RetrievalK)
	models := map[string]bool{}
	for _, m := range cfg.Models {
		r := m(corpus)
		models[r.Name()] = true
		rs = append(rs, r)
	}
	for _, rk := range rankings {
		if rk.Skipped != "" {
			continue
		}
		rk.Ranked, rk.NDCG = map[string][]string{}, map[string][]float64{}
		for _, r := range rs {
			var ids []string
			if models[r.Name()] {
				hs, err := retrieve.RetrieveWith(context.Background(), r, rk.Query, 0)
				if err != nil {
					return nil, fmt.Errorf("%s: %s: %w", r.Name(), rk.Key, err)
				}
				ids = retrieve.IDs(hs)
				if len(ids) > kmax {
					if rk.Selected == nil {
						rk.Selected = map[string][]string{}
					}
					rk.Selected[r.Name()] = ids
				}
			} else {
				ids = retrieve.IDs(r.Retrieve(rk.Query, kmax))
			}
			rk.Ranked[r.Name()] = ids[:min(len(ids), kmax)]
			for _, k := range RetrievalK {
				rk.NDCG[r.Name()] = append(rk.NDCG[r.Name()], retrieve.NDCG(ids, rk.Relevant, k))
			}
		}
	}
	groups := map[string][]*Ranking{}
	for _, rk := range rankings {
		groups[rk.Group] = append(groups[rk.Group], rk)
	}
	rep.Counts = append(rep.Counts, countQueries("", rankings))
	for _, g := range slices.Sorted(maps.Keys(groups)) {
		rep.Counts = append(rep.Counts, countQueries(g, groups[g]))
	}
	for _, r := range rs {
		rep.Rows = append(rep.Rows, modelScores(meanRow(r.Name(), "", rankings), models[r.Name()], rankings))
		for _, g := range slices.Sorted(maps.Keys(groups)) {
			rep.Rows = append(rep.Rows, modelScores(meanRow(r.Name(), g, groups[g]), models[r.Name()], groups[g]))
		}
	}
	if cfg.OutDir != "" {
		names := make([]string, len(rs))
		for i, r := range rs {
			names[i] = r.Name()
		}
		m := map[string]any{"suite": "retrieval", "retrievers": names, "queries": rep.Queries}
		if cfg.Sample > 0 {
			m["sample"] = cfg.Sample
		}
		if cfg.Pool > 0 {
			m["pool"] = cfg.Pool
		}
		if cfg.Setup != SetupDefault {
			m["setup"] = cfg.Setup
		}
		if rep.Seed != 0 {
			m["seed"] = rep.Seed
		}
		files, _, err := evaltasks.OpenRunFiles(cfg.OutDir, false, cfg.Overwrite, m)
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

// RetrievalPool is a pool of n of the catalog's APIs, ToolLLM's way of
// making the retrieval task the size of ToolBench's 16,464 APIs whatever
// the tree: every API relevant to or offered by one of the queries (those
// the catalog holds), then, up to n, a sample of the other APIs chosen by
// the seed and stratified by category (sampling.Keep: each category keeps
// its share of the rest). The same catalog, queries, n and seed give the
// same pool. When the queries' own APIs number n or more, the pool is
// just those; when the catalog holds at most n APIs, it is the catalog.
func RetrievalPool(c *toolset.Catalog, queries []*Resolved, n int, seed uint64) retrieve.Corpus {
	in := map[*toolset.API]bool{}
	for _, r := range queries {
		for _, a := range r.Relevant {
			in[a] = true
		}
		for _, a := range r.Offered {
			in[a] = true
		}
	}
	var rest []*toolset.API
	var items []sampling.Item
	for _, a := range c.APIs() {
		if !in[a] {
			rest = append(rest, a)
			cat := ""
			if a.Tool != nil {
				cat = a.Tool.Category
			}
			items = append(items, sampling.Item{Key: a.ID(), Strata: []string{cat}})
		}
	}
	if more := n - len(in); more > 0 {
		for i, keep := range sampling.Keep(items, more, seed) {
			if keep {
				in[rest[i]] = true
			}
		}
	}
	return retrieve.PoolCorpus(c, func(a *toolset.API) bool { return in[a] })
}

func countQueries(group string, rks []*Ranking) QueryCounts {
	qc := QueryCounts{Group: group, Planned: len(rks), Skipped: map[string]int{}}
	for _, rk := range rks {
		switch {
		case rk.Skipped != "":
			qc.Skipped[rk.Skipped]++
		default:
			qc.Scored++
			if len(rk.Absent) > 0 {
				qc.MissingOther++
			}
		}
	}
	if len(qc.Skipped) == 0 {
		qc.Skipped = nil
	}
	return qc
}

func meanRow(retriever, group string, rks []*Ranking) RetrievalRow {
	row := RetrievalRow{Retriever: retriever, Group: group, NDCG: make([]float64, len(RetrievalK))}
	for _, rk := range rks {
		if rk.Skipped != "" {
			continue
		}
		row.N++
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

// what says what was ranked: the catalog, or the pool.
func (r *RetrievalReport) what() string {
	if r.Setup == SetupToolLLM {
		return fmt.Sprintf("the %d distinct api_list entries of the queries (-setup toolllm, as ToolLLM's Table 2), every entry of a query's api_list relevant to it", r.Pool)
	}
	if r.PoolTarget > 0 {
		return fmt.Sprintf("a pool of %d APIs (-pool %d: every API the queries name, then a seeded sample of the rest by category, seed %d)", r.Pool, r.PoolTarget, r.Seed)
	}
	return fmt.Sprintf("the whole catalog (%d APIs)", r.Pool)
}

// UnknownSetupError names a retrieval setup that does not exist.
type UnknownSetupError struct{ Name string }

func (e *UnknownSetupError) Error() string {
	return fmt.Sprintf("unknown retrieval setup %q (the default, or %q)", e.Name, SetupToolLLM)
}

// relevantTo says what the NDCG is computed against.
func (r *RetrievalReport) relevantTo() string {
	if r.Setup == SetupToolLLM {
		return "every API of each query's api_list"
	}
	return "each query's relevant APIs"
}

// notes say which queries the means are over.
func (r *RetrievalReport) notes() []string {
	var out []string
	if len(r.Counts) == 0 {
		return nil
	}
	o := r.Counts[0]
	if r.Sample > 0 {
		out = append(out, fmt.Sprintf("A sample of %d queries (-sample %d -seed %d), stratified by query file and category.", o.Planned, r.Sample, r.Seed))
	}
	line := fmt.Sprintf("Scored %d of %d queries", o.Scored, o.Planned)
	if skipped := o.Planned - o.Scored; skipped > 0 {
		line += fmt.Sprintf("; skipped %d whose relevant APIs are not all in the catalog (%s)", skipped, joinCounts(o.Skipped))
	}
	line += "."
	if o.MissingOther > 0 {
		line += fmt.Sprintf(" %d scored queries lack only an api_list entry that is not relevant; they are scored.", o.MissingOther)
	}
	return append(out, line)
}

// WriteTable prints NDCG per retriever and query file, in percent as
// ToolLLM's Table 2 does, then what was ranked and which queries count.
func (r *RetrievalReport) WriteTable(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	head := "Retriever\tQueries"
	for _, k := range r.K {
		head += fmt.Sprintf("\tNDCG@%d", k)
	}
	withModels := r.hasModels()
	if withModels {
		head += "\taccuracy\trecall"
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
		if withModels {
			line += modelCells(row)
		}
		fmt.Fprintf(tw, "%s\t%d\n", line, row.N)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintf(w, "Ranked %s.\n", r.what())
	for _, line := range r.notes() {
		fmt.Fprintln(w, line)
	}
	if withModels {
		fmt.Fprintln(w, modelNote)
	}
	return nil
}

// Markdown is report.md of a retrieval run.
func (r *RetrievalReport) Markdown() []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "# Retrieval report\n\nQueries `%s`. NDCG with binary relevance against %s, "+
		"ranking %s, in percent as ToolLLM's Table 2 prints it; n counts the queries scored.\n\n", r.Queries, r.relevantTo(), r.what())
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
	b.WriteString("\n")
	for _, line := range r.notes() {
		fmt.Fprintf(&b, "- %s\n", line)
	}
	if len(r.Counts) > 2 {
		b.WriteString("\n| Queries | planned | scored | skipped: tool absent | skipped: API absent | scored, a non-relevant API absent |\n|---|---:|---:|---:|---:|---:|\n")
		for _, c := range r.Counts {
			g := c.Group
			if g == "" {
				g = "**all**"
			}
			fmt.Fprintf(&b, "| %s | %d | %d | %d | %d | %d |\n", g, c.Planned, c.Scored, c.Skipped[ReasonToolAbsent], c.Skipped[ReasonAPIAbsent], c.MissingOther)
		}
	}
	return b.Bytes()
}
