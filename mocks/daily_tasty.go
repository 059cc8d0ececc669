package mocks

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"github.com/understudy/understudy/sandbox"
	"io/fs"
	"math"
	"sort"
	"strconv"
	"strings"
)

// The tasty stand-in (Tasty's recipe API on RapidAPI) over the authored
// recipes in recipes.json: prefix auto-complete, list with search and tag
// filters, recipe details, similar recipes and community tips. Recipes are
// served as the stored JSON, so every response carries the full Tasty shape.

func init() {
	register("tasty", "recipes_auto_complete", handleTastyAutoComplete)
	register("tasty", "recipes_list", handleTastyList)
	register("tasty", "recipes_get_more_info", handleTastyMoreInfo)
	register("tasty", "recipes_list_similarities", handleTastySimilar)
	register("tasty", "tips_list", handleTastyTips)
}

// tastyRecipe is a stored recipe: its JSON as served, and what search needs.
type tastyRecipe struct {
	raw        json.RawMessage
	id         int
	name       string
	popularity int
	country    string
	tags       map[string]bool // tag names
	words      map[string]int  // search token → weight
	features   map[string]bool // tags and ingredients, for similarity
	tips       []json.RawMessage
}

type tastySuggestion struct {
	Display     string `json:"display"`
	SearchValue string `json:"search_value"`
	Type        string `json:"type"`
}

type tastyCorpus struct {
	recipes     []*tastyRecipe // most popular first
	byID        map[int]*tastyRecipe
	suggestions []tastySuggestion // sorted by display
}

func loadRecipes(fsys fs.FS, _ *World) (*tastyCorpus, error) {
	raw, err := fs.ReadFile(fsys, "recipes.json")
	if err != nil {
		return nil, err
	}
	var doc struct {
		Recipes []json.RawMessage            `json:"recipes"`
		Tips    map[string][]json.RawMessage `json:"tips"`
	}
	if err := json.Unmarshal(raw, &doc); err != nil {
		return nil, fmt.Errorf("recipes.json: %w", err)
	}
	tc := &tastyCorpus{byID: map[int]*tastyRecipe{}}
	seen := map[string]bool{}
	suggest := func(display, typ string) {
		key := typ + "\x00" + display
		if display == "" || seen[key] {
			return
		}
		seen[key] = true
		tc.suggestions = append(tc.suggestions, tastySuggestion{Display: display, SearchValue: display, Type: typ})
	}
	for i, rj := range doc.Recipes {
		var r struct {
			ID          int    `json:"id"`
			Name        string `json:"name"`
			Description string `json:"description"`
			Country     string `json:"country"`
			Tags        []struct {
				Name        string `json:"name"`
				DisplayName string `json:"display_name"`
			} `json:"tags"`
			Sections []struct {
				Components []struct {
					Ingredient struct {
						Name string `json:"name"`
					} `json:"ingredient"`
				} `json:"components"`
			} `json:"sections"`
			UserRatings struct {
				CountPositive int `json:"count_positive"`
			} `json:"user_ratings"`
		}
		if err := json.Unmarshal(rj, &r); err != nil {
			return nil, fmt.Errorf("recipes.json: recipe %d: %w", i, err)
		}
		if r.ID == 0 || r.Name == "" {
			return nil, fmt.Errorf("recipes.json: recipe %d needs an id and a name", i)
		}
		if _, dup := tc.byID[r.ID]; dup {
			return nil, fmt.Errorf("recipes.json: recipe id %d listed twice", r.ID)
		}
		var compact bytes.Buffer
		if err := json.Compact(&compact, rj); err != nil {
			return nil, fmt.Errorf("recipes.json: recipe %d: %w", i, err)
		}
		rec := &tastyRecipe{raw: compact.Bytes(), id: r.ID, name: r.Name, popularity: r.UserRatings.CountPositive, country: r.Country,
			tags: map[string]bool{}, words: map[string]int{}, features: map[string]bool{}, tips: doc.Tips[strconv.Itoa(r.ID)]}
		add := func(text string, weight int) {
			for _, t := range newsTokens(text) {
				rec.words[t] += weight
			}
		}
		add(r.Name, 4)
		add(r.Description, 1)
		suggest(strings.ToLower(r.Name), "recipe")
		for _, t := range r.Tags {
			rec.tags[t.Name] = true
			rec.features["tag:"+t.Name] = true
			add(t.DisplayName, 2)
		}
		for _, s := range r.Sections {
			for _, c := range s.Components {
				n := c.Ingredient.Name
				rec.features["ing:"+n] = true
				add(n, 2)
				suggest(n, "ingredient")
			}
		}
		tc.recipes = append(tc.recipes, rec)
		tc.byID[r.ID] = rec
	}
	sort.SliceStable(tc.recipes, func(i, j int) bool { return tc.recipes[i].popularity > tc.recipes[j].popularity })
	sort.Slice(tc.suggestions, func(i, j int) bool {
		if tc.suggestions[i].Display != tc.suggestions[j].Display {
			return tc.suggestions[i].Display < tc.suggestions[j].Display
		}
		return tc.suggestions[i].Type < tc.suggestions[j].Type
	})
	return tc, nil
}

// tastyList is the list envelope of recipes/list and list-similarities.
type tastyList struct {
	Count   int               `json:"count"`
	Results []json.RawMessage `json:"results"`
}

func handleTastyAutoComplete(_ context.Context, w *World, c *Call) (any, error) {
	tc := w.recipes
	prefix := strings.ToLower(strings.Join(strings.Fields(c.argString("prefix")), " "))
	out := []tastySuggestion{}
	if prefix == "" {
		return map[string]any{"results": out}, nil
	}
	// Whole-phrase prefixes first, then a word inside the phrase.
	var inner []tastySuggestion
	for _, s := range tc.suggestions {
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
func tastyPage(c *Call, defSize, maxSize int) (int, int, error) {
	from := c.argInt("from", 0)
	size := c.argInt("size", defSize)
	if from < 0 {
		return 0, 0, &sandbox.Rejection{Status: 400, Body: map[string]any{"message": "Invalid parameter: from must be 0 or greater"}}
	}
	if size < 1 || size > maxSize {
		return 0, 0, &sandbox.Rejection{Status: 400, Body: map[string]any{"message": fmt.Sprintf("Invalid parameter: size must be between 1 and %d", maxSize)}}
	}
	return from, size, nil
}

func handleTastyList(_ context.Context, w *World, c *Call) (any, error) {
	tc := w.recipes
	from, size, err := tastyPage(c, 20, 40)
	if err != nil {
		return nil, err
	}
	var wantTags []string
	for _, t := range strings.FieldsFunc(strings.ToLower(c.argString("tags")), func(r rune) bool { return r == ',' || r == ' ' }) {
		wantTags = append(wantTags, t)
	}
	qt := newsTokens(c.argString("q"))
	type hit struct {
		r     *tastyRecipe
		score int
	}
	var hits []hit
next:
	for _, r := range tc.recipes {
		for _, t := range wantTags {
			if !r.tags[t] {
				continue next
			}
		}
		score := 0
		for _, t := range qt {
			wt := r.words[t]
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
		out.Results = append(out.Results, hits[i].r.raw)
	}
	return out, nil
}

// tastyRecipeArg finds the recipe an id argument names, with Tasty's 404.
func tastyRecipeArg(w *World, c *Call, name string) (*tastyRecipe, error) {
	tc := w.recipes
	s := c.argString(name)
	f, err := strconv.ParseFloat(s, 64)
	if err == nil && f == math.Trunc(f) && f > 0 && f < 1e9 {
		if r, ok := tc.byID[int(f)]; ok {
			return r, nil
		}
	}
	return nil, &sandbox.Rejection{Status: 404, Body: map[string]any{"message": fmt.Sprintf("Recipe %q not found; ids come from recipes/list (results[].id)", s)}}
}

func handleTastyMoreInfo(_ context.Context, w *World, c *Call) (any, error) {
	r, err := tastyRecipeArg(w, c, "id")
	if err != nil {
		return nil, err
	}
	return r.raw, nil
}

func handleTastySimilar(_ context.Context, w *World, c *Call) (any, error) {
	tc := w.recipes
	r, err := tastyRecipeArg(w, c, "recipe_id")
	if err != nil {
		return nil, err
	}
	type sim struct {
		r     *tastyRecipe
		score float64
	}
	var sims []sim
	for _, o := range tc.recipes {
		if o == r {
			continue
		}
		shared := 0
		for f := range r.features {
			if o.features[f] {
				shared++
			}
		}
		// Jaccard over tags and ingredients, with a lift for the same cuisine.
		s := float64(shared) / float64(len(r.features)+len(o.features)-shared)
		if o.country == r.country {
			s += 0.1
		}
		if shared > 0 {
			sims = append(sims, sim{o, s})
		}
	}
	sort.SliceStable(sims, func(i, j int) bool {
		if sims[i].score != sims[j].score {
			return sims[i].score > sims[j].score
		}
		return sims[i].r.id < sims[j].r.id
	})
	out := tastyList{Results: []json.RawMessage{}}
	for i := 0; i < len(sims) && i < 8; i++ {
		out.Results = append(out.Results, sims[i].r.raw)
	}
	out.Count = len(out.Results)
	return out, nil
}

func handleTastyTips(_ context.Context, w *World, c *Call) (any, error) {
	r, err := tastyRecipeArg(w, c, "id")
	if err != nil {
		return nil, err
	}
	from, size, err := tastyPage(c, 30, 40)
	if err != nil {
		return nil, err
	}
	out := tastyList{Count: len(r.tips), Results: []json.RawMessage{}}
	for i := from; i < len(r.tips) && i < from+size; i++ {
		out.Results = append(out.Results, r.tips[i])
	}
	return out, nil
}
