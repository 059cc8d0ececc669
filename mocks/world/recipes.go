package world

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"sort"
	"strconv"
	"strings"
)

// Recipe is a stored recipe: its JSON as served, and what search needs.
type Recipe struct {
	Raw        json.RawMessage `json:"-"`
	ID         int             `json:"-"`
	Name       string          `json:"-"`
	popularity int
	Country    string            `json:"-"`
	Tags       map[string]bool   `json:"-"` // tag names
	Words      map[string]int    `json:"-"` // search token → weight
	Tips       []json.RawMessage `json:"-"`
	// For similarity (SimilarTo): the courses of its meal tags ("main" when
	// it has none), its cuisine tag, the words of its main ingredients and
	// its other tags (dietary, method, occasion, dish style).
	Courses   map[string]bool `json:"-"`
	Cuisine   string          `json:"-"`
	Main      map[string]bool `json:"-"`
	OtherTags map[string]bool `json:"-"`
}

// RecipeSuggestion is one entry of the recipe autocomplete list.
type RecipeSuggestion struct {
	Display     string `json:"display"`
	SearchValue string `json:"search_value"`
	Type        string `json:"type"`
}

// Recipes is the recipe part: the recipes of recipes.json, most popular first.
type Recipes struct {
	Recipes     []*Recipe // most popular first
	ByID        map[int]*Recipe
	Suggestions []RecipeSuggestion // sorted by display
}

func loadRecipes(fsys fs.FS, _ *World) (*Recipes, error) {
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
	tc := &Recipes{ByID: map[int]*Recipe{}}
	seen := map[string]bool{}
	suggest := func(display, typ string) {
		key := typ + "\x00" + display
		if display == "" || seen[key] {
			return
		}
		seen[key] = true
		tc.Suggestions = append(tc.Suggestions, RecipeSuggestion{Display: display, SearchValue: display, Type: typ})
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
				Type        string `json:"type"`
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
		if _, dup := tc.ByID[r.ID]; dup {
			return nil, fmt.Errorf("recipes.json: recipe id %d listed twice", r.ID)
		}
		var compact bytes.Buffer
		if err := json.Compact(&compact, rj); err != nil {
			return nil, fmt.Errorf("recipes.json: recipe %d: %w", i, err)
		}
		rec := &Recipe{Raw: compact.Bytes(), ID: r.ID, Name: r.Name, popularity: r.UserRatings.CountPositive, Country: r.Country,
			Tags: map[string]bool{}, Words: map[string]int{}, Tips: doc.Tips[strconv.Itoa(r.ID)],
			Courses: map[string]bool{}, OtherTags: map[string]bool{}}
		add := func(text string, weight int) {
			for _, t := range NewsTokens(text) {
				rec.Words[t] += weight
			}
		}
		add(r.Name, 4)
		add(r.Description, 1)
		suggest(strings.ToLower(r.Name), "recipe")
		for _, t := range r.Tags {
			rec.Tags[t.Name] = true
			add(t.DisplayName, 2)
			switch {
			case t.Type == "meal":
				rec.Courses[courseOf[t.Name]] = true
			case t.Type == "cuisine":
				rec.Cuisine = t.Name
			case t.Type != "difficulty":
				rec.OtherTags[t.Name] = true
			}
		}
		if len(rec.Courses) == 0 {
			rec.Courses["main"] = true
		}
		var ingredients []string
		for _, s := range r.Sections {
			for _, c := range s.Components {
				n := c.Ingredient.Name
				ingredients = append(ingredients, n)
				add(n, 2)
				suggest(n, "ingredient")
			}
		}
		rec.Main = mainWords(ingredients)
		tc.Recipes = append(tc.Recipes, rec)
		tc.ByID[r.ID] = rec
	}
	sort.SliceStable(tc.Recipes, func(i, j int) bool { return tc.Recipes[i].popularity > tc.Recipes[j].popularity })
	sort.Slice(tc.Suggestions, func(i, j int) bool {
		if tc.Suggestions[i].Display != tc.Suggestions[j].Display {
			return tc.Suggestions[i].Display < tc.Suggestions[j].Display
		}
		return tc.Suggestions[i].Type < tc.Suggestions[j].Type
	})
	return tc, nil
}
