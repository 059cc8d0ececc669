package daily

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/understudy/understudy/mocks/standin"
	"github.com/understudy/understudy/mocks/world"
	"github.com/understudy/understudy/sandbox"
)

// The tasty stand-in (Tasty's recipe API on RapidAPI) over the authored
// recipes in recipes.json: prefix auto-complete, list with search and tag
// filters, recipe details, similar recipes and community tips. Recipes are
// served as the stored JSON, so every response carries the full Tasty shape.

// tastyList is the list envelope of recipes/list and list-similarities.
type tastyList struct {
	Count   int               `json:"count"`
	Results []json.RawMessage `json:"results"`
}

func handleTastyAutoComplete(_ context.Context, w *world.World, c *standin.Call) (any, error) {
	tc := w.Recipes
	prefix := strings.ToLower(strings.Join(strings.Fields(c.ArgString("prefix")), " "))
	out := []world.RecipeSuggestion{}
	if prefix == "" {
		return map[string]any{"results": out}, nil
	}
	// Whole-phrase prefixes first, then a word inside the phrase.
	var inner []world.RecipeSuggestion
	for _, s := range tc.Suggestions {
		switch {
		case strings.HasPrefix(s.Display, prefix):
			out = append(out, s)
		case strings.Contains(s.Display, " "+prefix):
			inner = append(inner, s)
		}
	}
	out = append(out, inner...)
	if len(out) > 10 {
		out = out[:10]
	}
	return map[string]any{"results": out}, nil
}

// tastyPage reads from/size (offset and page length) the way Tasty does.
func tastyPage(c *standin.Call, defSize, maxSize int) (int, int, error) {
	from := c.ArgInt("from", 0)
	size := c.ArgInt("size", defSize)
	if from < 0 {
		return 0, 0, &sandbox.Rejection{Status: 400, Body: map[string]any{"message": "Invalid parameter: from must be 0 or greater"}}
	}
	if size < 1 || size > maxSize {
		return 0, 0, &sandbox.Rejection{Status: 400, Body: map[string]any{"message": fmt.Sprintf("Invalid parameter: size must be between 1 and %d", maxSize)}}
	}
	return from, size, nil
}

func handleTastyList(_ context.Context, w *world.World, c *standin.Call) (any, error) {
	tc := w.Recipes
	from, size, err := tastyPage(c, 20, 40)
	if err != nil {
		return nil, err
	}
	var wantTags []string
	for _, t := range strings.FieldsFunc(strings.ToLower(c.ArgString("tags")), func(r rune) bool { return r == ',' || r == ' ' }) {
		wantTags = append(wantTags, t)
	}
	qt := world.NewsTokens(c.ArgString("q"))
	type hit struct {
		r     *world.Recipe
		score int
	}
	var hits []hit
next:
	for _, r := range tc.Recipes {
		for _, t := range wantTags {
			if !r.Tags[t] {
				continue next
			}
		}
		score := 0
		for _, t := range qt {
			wt := r.Words[t]
			if wt == 0 {
				continue next // every word of the query must match
			}
			score += wt
		}
		hits = append(hits, hit{r, score})
	}
	sort.SliceStable(hits, func(i, j int) bool { return hits[i].score > hits[j].score })
	out := tastyList{Count: len(hits), Results: []json.RawMessage{}}
	for i := from; i < len(hits) && i < from+size; i++ {
		out.Results = append(out.Results, hits[i].r.Raw)
	}
	return out, nil
}

// tastyRecipeArg finds the recipe an id argument names, with Tasty's 404.
func tastyRecipeArg(w *world.World, c *standin.Call, name string) (*world.Recipe, error) {
	tc := w.Recipes
	s := c.ArgString(name)
	f, err := strconv.ParseFloat(s, 64)
	if err == nil && f == math.Trunc(f) && f > 0 && f < 1e9 {
		if r, ok := tc.ByID[int(f)]; ok {
			return r, nil
		}
	}
	return nil, &sandbox.Rejection{Status: 404, Body: map[string]any{"message": fmt.Sprintf("Recipe %q not found; ids come from recipes/list (results[].id)", s)}}
}

func handleTastyMoreInfo(_ context.Context, w *world.World, c *standin.Call) (any, error) {
	r, err := tastyRecipeArg(w, c, "id")
	if err != nil {
		return nil, err
	}
	return r.Raw, nil
}

func handleTastySimilar(_ context.Context, w *world.World, c *standin.Call) (any, error) {
	tc := w.Recipes
	r, err := tastyRecipeArg(w, c, "recipe_id")
	if err != nil {
		return nil, err
	}
	type sim struct {
		r *world.Recipe
		s world.Similarity
	}
	var sims []sim
	for _, o := range tc.Recipes {
		if o == r {
			continue
		}
		if s, ok := r.SimilarTo(o); ok {
			sims = append(sims, sim{o, s})
		}
	}
	sort.SliceStable(sims, func(i, j int) bool {
		if sims[i].s.Score != sims[j].s.Score {
			return sims[i].s.Score > sims[j].s.Score
		}
		return sims[i].r.ID < sims[j].r.ID
	})
	out := tastyList{Results: []json.RawMessage{}}
	for i := 0; i < len(sims) && i < 8; i++ {
		// Each result says why it is similar: the recipe's own JSON with a
		// "similarity" member (score, shared course, cuisine, ingredients, tags).
		why, err := json.Marshal(sims[i].s)
		if err != nil {
			return nil, fmt.Errorf("tasty: similarity of recipe %d: %w", sims[i].r.ID, err)
		}
		raw := sims[i].r.Raw
		withWhy := append(append(append([]byte{}, raw[:len(raw)-1]...), `,"similarity":`...), why...)
		out.Results = append(out.Results, append(withWhy, '}'))
	}
	out.Count = len(out.Results)
	return out, nil
}

func handleTastyTips(_ context.Context, w *world.World, c *standin.Call) (any, error) {
	r, err := tastyRecipeArg(w, c, "id")
	if err != nil {
		return nil, err
	}
	from, size, err := tastyPage(c, 30, 40)
	if err != nil {
		return nil, err
	}
	out := tastyList{Count: len(r.Tips), Results: []json.RawMessage{}}
	for i := from; i < len(r.Tips) && i < from+size; i++ {
		out.Results = append(out.Results, r.Tips[i])
	}
	return out, nil
}
