package search

import (
	"sort"
	"strings"

	"github.com/understudy/understudy/internal/fuzzy"
	"github.com/understudy/understudy/toolset"
)

// Suggest proposes up to k API IDs ("tool.api") close to an unknown tool
// and API name, best first, for "did you mean" answers. Each candidate
// scores
//
//	0.6 · name similarity + 0.4 · BM25 / best BM25
//
// where name similarity is 1 − edit distance / length on standardized names
// (the tool's and the API's, weighted 1:2 when a tool is given) and BM25 is
// the names' words (the API's, its tool's name and title) against both
// names split into words. When api is empty, Suggest proposes tool names
// instead, by name similarity alone. Candidates scoring below 0.3 are
// dropped; ties go to the smaller ID.
//
// The candidates of a tool the catalog has are its APIs (BM25 then ranks
// among them, best being the best of them). Otherwise they
// come from an index built once per catalog (see PrepareSuggest), not from scoring
// every API: the APIs whose standardized names share the most trigrams
// with the one asked for, the APIs of the tools nearest the tool asked
// for, and the best BM25 hits. On StableToolBench's 44,692 APIs a miss
// costs about a millisecond instead of most of a second.
func Suggest(c *toolset.Catalog, tool, api string, k int) []string {
	if c == nil || k <= 0 {
		return nil
	}
	ix := suggestIndex(c)
	stdTool, stdAPI := toolset.Standardize(tool), toolset.StandardizeAPIName(api)
	type cand struct {
		id    string
		score float64
	}
	var cands []cand
	near := make([]int, 0, suggestAPIs)
	if strings.TrimSpace(api) == "" {
		for _, i := range ix.toolNames.Nearest(stdTool, suggestTools, near) {
			t := ix.tools[i]
			cands = append(cands, cand{t.StandardizedName, fuzzy.Similarity(stdTool, t.StandardizedName)})
		}
	} else {
		seen := map[int]bool{}
		offer := func(i int) { seen[i] = true }
		bm := map[int]float64{}
		best := 0.0
		if t := c.Tool(tool); t != nil {
			// A known tool: its own APIs are what the caller meant.
			for _, a := range t.APIs {
				offer(ix.position[a])
			}
			for _, h := range ix.words.Search(tool+" "+api, 50) {
				if h.API.Tool == t {
					i := ix.position[h.API]
					bm[i] = h.Score
					best = max(best, h.Score)
				}
			}
		} else {
			for _, i := range ix.apiNames.Nearest(stdAPI, suggestAPIs, near) {
				offer(i)
			}
			if stdTool != "" {
				for _, ti := range ix.toolNames.Nearest(stdTool, suggestTools, near[:0]) {
					for _, i := range ix.toolAPIs[ti] {
						offer(int(i))
					}
				}
			}
			for _, h := range ix.words.Search(tool+" "+api, 50) {
				i := ix.position[h.API]
				offer(i)
				bm[i] = h.Score
				best = max(best, h.Score)
			}
		}
		for i := range seen {
			name := fuzzy.Similarity(stdAPI, ix.apiNames.Name(i))
			if stdTool != "" {
				name = (fuzzy.Similarity(stdTool, ix.apis[i].Tool.StandardizedName) + 2*name) / 3
			}
			s := 0.6 * name
			if best > 0 {
				s += 0.4 * bm[i] / best
			}
			cands = append(cands, cand{ix.words.ids[i], s})
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

// How many candidates Suggest takes from the trigram indexes: the APIs
// nearest the API name, and the tools nearest the tool name (all of whose
// APIs are candidates).
const (
	suggestAPIs  = 64
	suggestTools = 8
)

// nameIndex is what Suggest looks names up in.
type nameIndex struct {
	apis      []*toolset.API
	position  map[*toolset.API]int
	apiNames  *fuzzy.Index // APIs' standardized names
	tools     []*toolset.Tool
	toolAPIs  [][]int32    // each tool's APIs, as positions in apis
	toolNames *fuzzy.Index // tools' standardized names
	// words is BM25 over each API's name with its tool's name and title.
	words *Index
}

// PrepareSuggest builds the index Suggest reads, so that the first unknown
// name costs no more than the others; Suggest builds it when it was not.
func PrepareSuggest(c *toolset.Catalog) {
	if c != nil {
		suggestIndex(c)
	}
}

// suggestKey is the key of a catalog's nameIndex in Catalog.Derived.
type suggestKey struct{}

func suggestIndex(c *toolset.Catalog) *nameIndex {
	return c.Derived(suggestKey{}, func() any {
		ix := &nameIndex{position: map[*toolset.API]int{}}
		var apiNames, toolNames []string
		var docs [][]string
		for _, t := range c.Tools() {
			ix.tools = append(ix.tools, t)
			toolNames = append(toolNames, t.StandardizedName)
			var mine []int32
			for _, a := range t.APIs {
				ix.position[a] = len(ix.apis)
				mine = append(mine, int32(len(ix.apis)))
				ix.apis = append(ix.apis, a)
				apiNames = append(apiNames, a.StandardizedName())
				toks := appendTokens(nil, a.Name)
				toks = appendTokens(toks, t.Name)
				if t.Title != t.Name {
					toks = appendTokens(toks, t.Title)
				}
				docs = append(docs, toks)
			}
			ix.toolAPIs = append(ix.toolAPIs, mine)
		}
		ix.apiNames, ix.toolNames = fuzzy.New(apiNames), fuzzy.New(toolNames)
		ix.words = newIndexTokens(docs)
		ix.words.apis = ix.apis
		ix.words.ids = make([]string, len(ix.apis))
		for i, a := range ix.apis {
			ix.words.ids[i] = a.ID()
		}
		return ix
	}).(*nameIndex)
}
