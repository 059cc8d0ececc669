package world

import (
	"math"
	"sort"
	"strings"
)

// Recipe similarity: what a cook means by "similar" — the same course (no
// apple pie for a salad), then shared main ingredients and the same
// cuisine. Staples (salt, oil, flour, eggs, onion, garlic…) and words that
// name a form rather than a food ("ground", "sauce") do not make two
// recipes alike.

// stapleWords are ingredients nearly every savoury or sweet recipe has.
var stapleWords = map[string]bool{
	"salt": true, "pepper": true, "water": true, "oil": true, "sugar": true, "flour": true, "butter": true,
	"garlic": true, "onion": true, "egg": true, "yolk": true, "milk": true, "soda": true, "vanilla": true,
	"yeast": true, "shallot": true, "ice": true, "cumin": true, "cinnamon": true, "paprika": true,
	"thyme": true, "oregano": true, "bay": true, "lemon": true, "lime": true, "juice": true, "extract": true,
	"chili": true, "cilantro": true, "parsley": true, "ginger": true, "black": true,
}

// formWords describe how an ingredient is prepared or sold, not what it is.
var formWords = map[string]bool{
	"large": true, "small": true, "medium": true, "fresh": true, "freshly": true, "ground": true, "dried": true,
	"whole": true, "boneless": true, "cooked": true, "ripe": true, "unsalted": true, "extra-virgin": true,
	"virgin": true, "kosher": true, "sweet": true, "plain": true, "sauce": true, "paste": true, "powder": true,
	"broth": true, "stock": true, "leaves": true, "leaf": true, "seeds": true, "seed": true, "sliced": true,
	"chopped": true, "grated": true, "finely": true, "shredded": true, "crushed": true, "diced": true, "warm": true,
	"cold": true, "hard-boiled": true, "thick-cut": true, "piece": true, "strip": true, "peel": true, "toasted": true,
	"granulated": true, "brown": true, "white": true, "red": true, "green": true, "yellow": true, "heavy": true,
	"instant": true, "baking": true, "all-purpose": true, "and": true, "of": true, "whole-milk": true, "shaved": true,
	"flaky": true, "sea": true, "mixed": true, "flat": true, "fine": true, "firm": true, "silken": true, "vegetable": true,
	"dry": true, "wine": true, "spice": true, "blend": true, "sprinkles": true,
}

// courseOf maps Tasty's meal tags to a course.
var courseOf = map[string]string{
	"desserts": "dessert", "breakfast": "breakfast", "brunch": "breakfast",
	"dinner": "main", "lunch": "main", "snacks": "snack",
}

// mainWords are the words of a recipe's ingredients that name its main foods.
func mainWords(ingredients []string) map[string]bool {
	out := map[string]bool{}
	for _, ing := range ingredients {
		words := strings.Fields(strings.ToLower(ing))
		if len(words) == 0 {
			continue
		}
		if last := words[len(words)-1]; last == "oil" || last == "vinegar" {
			continue // olive oil is not olives, rice vinegar not rice
		}
		for _, w := range words {
			w = strings.Trim(w, ",()")
			if w = singular(w); w != "" && !formWords[w] && !stapleWords[w] {
				out[w] = true
			}
		}
	}
	return out
}

// singular strips an English plural ("tomatoes" → "tomato", "eggs" → "egg").
func singular(w string) string {
	switch {
	case strings.HasSuffix(w, "oes"):
		return strings.TrimSuffix(w, "es")
	case strings.HasSuffix(w, "ies"):
		return strings.TrimSuffix(w, "ies") + "y"
	case strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") && len(w) > 3:
		return strings.TrimSuffix(w, "s")
	}
	return w
}

// Similarity says how, and how much, one recipe is like another.
type Similarity struct {
	Score             float64  `json:"score"` // 0..1
	Course            []string `json:"course"`
	SameCuisine       string   `json:"same_cuisine,omitempty"`
	SharedIngredients []string `json:"shared_ingredients"`
	SharedTags        []string `json:"shared_tags"`
}

// SimilarTo reports how o is like r, and false when it is not: another
// course, or neither a main ingredient nor the cuisine in common.
func (r *Recipe) SimilarTo(o *Recipe) (Similarity, bool) {
	s := Similarity{Course: []string{}, SharedIngredients: []string{}, SharedTags: []string{}}
	for c := range r.Courses {
		if o.Courses[c] {
			s.Course = append(s.Course, c)
		}
	}
	if len(s.Course) == 0 {
		return s, false
	}
	for w := range r.Main {
		if o.Main[w] {
			s.SharedIngredients = append(s.SharedIngredients, w)
		}
	}
	if r.Cuisine != "" && r.Cuisine == o.Cuisine {
		s.SameCuisine = r.Cuisine
	}
	if len(s.SharedIngredients) == 0 && s.SameCuisine == "" {
		return s, false
	}
	for t := range r.OtherTags {
		if o.OtherTags[t] {
			s.SharedTags = append(s.SharedTags, t)
		}
	}
	sort.Strings(s.Course)
	sort.Strings(s.SharedIngredients)
	sort.Strings(s.SharedTags)
	jaccard := func(shared, a, b int) float64 {
		if a+b-shared == 0 {
			return 0
		}
		return float64(shared) / float64(a+b-shared)
	}
	score := 0.55*jaccard(len(s.SharedIngredients), len(r.Main), len(o.Main)) +
		0.15*jaccard(len(s.SharedTags), len(r.OtherTags), len(o.OtherTags))
	if s.SameCuisine != "" {
		score += 0.3
	}
	s.Score = math.Round(score*1000) / 1000
	return s, true
}
