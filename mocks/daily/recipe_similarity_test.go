package daily

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/understudy/understudy/mocks/internal/standintest"
)

type similarResult struct {
	ID         int    `json:"id"`
	Name       string `json:"name"`
	Similarity struct {
		Score             float64  `json:"score"`
		Course            []string `json:"course"`
		SameCuisine       string   `json:"same_cuisine"`
		SharedIngredients []string `json:"shared_ingredients"`
	} `json:"similarity"`
}

func similarTo(t *testing.T, s *standintest.Session, id int) []similarResult {
	t.Helper()
	v := s.OK("tasty", "recipes_list_similarities", map[string]any{"recipe_id": id})
	_, b := standintest.PlainJSON(t, v)
	var doc struct {
		Results []similarResult `json:"results"`
	}
	require.NoError(t, json.Unmarshal(b, &doc))
	return doc.Results
}

func TestRecipeSimilarityByCourseCuisineAndIngredients(t *testing.T) {
	s := standintest.New(t, Register)
	tests := []struct {
		id      int
		name    string
		never   []string // recipes a cook would not call similar
		someOf  []string // at least one of these is listed
		courses []string // every result shares one of these courses
	}{
		{8585, "Greek Salad", []string{"Apple Pie", "Fluffy Buttermilk Pancakes", "Chocolate Chip Cookies", "Tiramisu"}, []string{"Moussaka", "Gazpacho", "Tabbouleh", "Caesar Salad"}, []string{"main"}},
		{8110, "Easy Vegetable Fried Rice", []string{"Fluffy Buttermilk Pancakes", "Classic Spaghetti Carbonara", "Apple Pie"}, []string{"Bibimbap", "Poke Bowl", "Mushroom Risotto", "Jollof Rice"}, []string{"main"}},
		{9912, "Apple Pie", []string{"Greek Salad", "Beef Tacos", "Pad Thai"}, []string{"Chocolate Chip Cookies", "Banana Bread", "Cinnamon Rolls", "Churros"}, []string{"dessert"}},
		{8000, "Classic Spaghetti Carbonara", []string{"Tiramisu", "Fluffy Buttermilk Pancakes"}, []string{"Spaghetti Bolognese", "Mushroom Risotto", "Margherita Pizza", "Pasta Primavera"}, []string{"main"}},
	}
	for _, tt := range tests {
		res := similarTo(t, s, tt.id)
		require.NotEmpty(t, res, tt.name)
		names := map[string]bool{}
		prev := 2.0
		for _, r := range res {
			names[r.Name] = true
			require.NotEqual(t, tt.id, r.ID)
			require.LessOrEqual(t, r.Similarity.Score, prev, "%s: best first", tt.name)
			prev = r.Similarity.Score
			require.NotEmpty(t, r.Similarity.Course, "%s ~ %s: the course is stated", tt.name, r.Name)
			require.Subset(t, tt.courses, r.Similarity.Course, "%s ~ %s", tt.name, r.Name)
			require.True(t, r.Similarity.SameCuisine != "" || len(r.Similarity.SharedIngredients) > 0,
				"%s ~ %s: neither cuisine nor a main ingredient in common", tt.name, r.Name)
		}
		for _, n := range tt.never {
			require.False(t, names[n], "%s is listed as similar to %s", n, tt.name)
		}
		found := false
		for _, n := range tt.someOf {
			found = found || names[n]
		}
		require.True(t, found, "%s: none of %v among %v", tt.name, tt.someOf, names)
	}
	// Fried rice and bibimbap share rice, and that is what the answer says.
	for _, r := range similarTo(t, s, 8110) {
		if r.Name == "Bibimbap" {
			require.Contains(t, r.Similarity.SharedIngredients, "rice")
		}
	}
}
