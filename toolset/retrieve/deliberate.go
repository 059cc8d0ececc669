package retrieve

import (
	"regexp"
	"strings"

	"github.com/understudy/understudy/toolset"
	"github.com/understudy/understudy/toolset/search"
)

// Deliberate is Self-Assist's five-step tool selection without a model:
// (1) query analysis splits the query into the needs it states (clauses
// joined by "and", "also", "then", or separate sentences); (2) each need
// stands as the description of the tool it requires; (3) each description
// is retrieved by BM25; (4) candidate analysis keeps a need's candidates
// that score at least Keep times its best; (5) the final choice takes
// the needs' candidates in turn, best first, so that a query asking for
// two things gets an API for each at the top rather than two for the
// first. The whole query's own BM25 ranking fills what is left.
type Deliberate struct {
	index *search.Index
	// PerNeed is how many candidates one need retrieves (default 3).
	PerNeed int
	// Keep is the share of a need's best score a candidate must reach (default 0.5).
	Keep float64
}

// NewDeliberate selects over the catalog's BM25 index.
func NewDeliberate(c *toolset.Catalog) *Deliberate {
	r, _ := CatalogCorpus(c).New(NameDeliberate)
	return r.(*Deliberate)
}

// Name is "deliberate".
func (*Deliberate) Name() string { return NameDeliberate }

// needSplitRE splits a query into needs: sentence ends, semicolons, and
// the conjunctions that join requests.
var needSplitRE = regexp.MustCompile(`(?i)[.?!;]+\s+|[?!;]+$|,?\s+\b(?:and|also|then|plus|as well as)\b\s+`)

// Needs is the query analysis: the needs a query states, in order.
func Needs(query string) []string {
	var out []string
	for _, part := range needSplitRE.Split(query, -1) {
		if len(search.Tokenize(part)) >= 2 {
			out = append(out, strings.TrimSpace(part))
		}
	}
	if len(out) == 0 && strings.TrimSpace(query) != "" {
		out = []string{strings.TrimSpace(query)}
	}
	return out
}

// Retrieve returns k APIs chosen need by need.
func (d *Deliberate) Retrieve(query string, k int) []Hit {
	if k <= 0 {
		return nil
	}
	per := max(d.PerNeed, 1)
	var lists [][]search.Hit
	for _, need := range Needs(query) {
		cands := d.index.Search(need, per)
		if len(cands) == 0 {
			continue
		}
		best := cands[0].Score
		kept := cands[:0:0]
		for _, c := range cands {
			if c.Score >= d.Keep*best {
				kept = append(kept, c)
			}
		}
		lists = append(lists, kept)
	}
	var out []Hit
	seen := map[string]bool{}
	add := func(id string) {
		if !seen[id] && len(out) < k {
			seen[id] = true
			// Scores are ranks turned around, so they sort as chosen.
			out = append(out, Hit{ID: id})
		}
	}
	for rank := 0; rank < per; rank++ {
		for _, l := range lists {
			if rank < len(l) {
				add(l[rank].ID)
			}
		}
	}
	for _, h := range d.index.Search(query, k) {
		add(h.ID)
	}
	for i := range out {
		out[i].Score = float64(len(out) - i)
	}
	return out
}
