package toolset

import (
	"sort"
	"strings"
)

// CategoriesOf lists the categories holding a tool of the given name (raw,
// standardized, or StableToolBench's "<name>_for_<category>"), sorted: the
// one a ToolBench client should have named when it named another.
func (c *Catalog) CategoriesOf(name string) []string {
	if c == nil {
		return nil
	}
	n := Standardize(name)
	var out []string
	for _, t := range c.Tools() {
		cat := Standardize(t.Category)
		base, _ := strings.CutSuffix(n, "_for_"+cat)
		if t.baseName() == n || t.baseName() == base || t.StandardizedName == n {
			out = append(out, t.Category)
		}
	}
	sort.Strings(out)
	return out
}
