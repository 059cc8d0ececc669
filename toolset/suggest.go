package toolset

import (
	"sort"
	"strings"
)

// Suggest proposes up to k API IDs ("tool.api") close to an unknown tool
// and API name, best first, for "did you mean" answers. Each API scores
//
//	0.6 · name similarity + 0.4 · BM25 / best BM25
//
// where name similarity is 1 − edit distance / length on standardized names
// (the tool's and the API's, weighted 1:2 when a tool is given) and the BM25
// query is both names split into words. When api is empty, Suggest proposes
// tool names instead, by name similarity alone. Candidates scoring below
// 0.3 are dropped; ties go to the smaller ID.
func (c *Catalog) Suggest(tool, api string, k int) []string {
	if c == nil || k <= 0 {
		return nil
	}
	stdTool, stdAPI := Standardize(tool), StandardizeAPIName(api)
	type cand struct {
		id    string
		score float64
	}
	var cands []cand
	if strings.TrimSpace(api) == "" {
		for _, t := range c.Tools() {
			cands = append(cands, cand{t.StandardizedName, similarity(stdTool, t.StandardizedName)})
		}
	} else {
		bm := map[*API]float64{}
		best := 0.0
		for _, h := range c.Index().Search(tool+" "+api, 50) {
			bm[h.API] = h.Score
			best = max(best, h.Score)
		}
		for _, a := range c.APIs() {
			name := similarity(stdAPI, StandardizeAPIName(a.Name))
			if stdTool != "" {
				name = (similarity(stdTool, a.Tool.StandardizedName) + 2*name) / 3
			}
			s := 0.6 * name
			if best > 0 {
				s += 0.4 * bm[a] / best
			}
			cands = append(cands, cand{a.ID(), s})
		}
	}
	sort.Slice(cands, func(i, j int) bool {
		if cands[i].score != cands[j].score {
			return cands[i].score > cands[j].score
		}
		return cands[i].id < cands[j].id
	})
	var out []string
	for _, cd := range cands {
		if len(out) == k || cd.score < 0.3 {
			break
		}
		out = append(out, cd.id)
	}
	return out
}

// similarity is 1 − edit distance / longer length, in [0, 1].
func similarity(a, b string) float64 {
	if a == "" && b == "" {
		return 1
	}
	n := max(len(a), len(b))
	return 1 - float64(levenshtein(a, b))/float64(n)
}
