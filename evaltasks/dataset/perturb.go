package dataset

import (
	"strings"

	"github.com/understudy/understudy/toolset"
	"github.com/understudy/understudy/toolset/search"
)

// PerturbingCount is the number of perturbing APIs Task 2 offers beside
// the target (the evaluation paper footnote 7).
const PerturbingCount = 4

// ResolveAPI finds an API named by its ID "tool.api" (either part raw or
// standardized), or by an exported function name.
func ResolveAPI(cat *toolset.Catalog, id string) *toolset.API {
	if cat == nil {
		return nil
	}
	if tool, api, ok := strings.Cut(id, "."); ok {
		if a := cat.API(tool, api); a != nil {
			return a
		}
	}
	if a := cat.APIByExportName(id); a != nil {
		return a
	}
	return cat.APIByFunction(id)
}

// PerturbingAPIs returns the IDs of the PerturbingCount APIs most similar
// to an instruction's target API by BM25 over the documentation, best
// first. The query is the target's name, description and parameter
// descriptions plus its tool's description; the target and the
// instruction's AlsoCorrect APIs are never returned. A nil index means the
// catalog's own. Fewer are returned when the catalog has too few APIs
// sharing any term with the target.
func PerturbingAPIs(cat *toolset.Catalog, index *search.Index, in Instruction) []string {
	target := ResolveAPI(cat, in.TargetAPI)
	if target == nil {
		return nil
	}
	if index == nil {
		index = search.Of(cat)
	}
	exclude := map[string]bool{target.ID(): true}
	for _, id := range in.AlsoCorrect {
		if a := ResolveAPI(cat, id); a != nil {
			exclude[a.ID()] = true
		} else {
			exclude[id] = true
		}
	}
	hits := index.Search(perturbQuery(target), PerturbingCount+len(exclude))
	out := make([]string, 0, PerturbingCount)
	for _, h := range hits {
		if exclude[h.ID] {
			continue
		}
		out = append(out, h.ID)
		if len(out) == PerturbingCount {
			break
		}
	}
	return out
}

func perturbQuery(a *toolset.API) string {
	parts := []string{strings.ReplaceAll(a.Name, "_", " "), a.Description}
	for _, p := range a.Params {
		parts = append(parts, p.Description)
	}
	if a.Tool != nil {
		parts = append(parts, a.Tool.Description)
	}
	return strings.Join(parts, " ")
}
