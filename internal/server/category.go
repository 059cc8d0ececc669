package server

import (
	"fmt"
	"strings"

	"github.com/understudy/understudy/toolset"
)

// wrongCategory is the error a ToolBench call gets when its category_name
// does not hold its tool_name but another category does: StableToolBench's
// server finds a tool by category and name, and refuses the call; the
// text names the category that holds it. "" when the category holds the
// tool, names none, or no category has it (the unknown tool is reported
// as such further on).
func wrongCategory(cat *toolset.Catalog, category, tool string) string {
	if strings.TrimSpace(category) == "" || cat.ToolIn(category, tool) != nil {
		return ""
	}
	holders := cat.CategoriesOf(tool)
	if len(holders) == 0 {
		return ""
	}
	return fmt.Sprintf("Unknown tool: category %q has no tool %q; it is in category %s", prefix(category, 64), prefix(tool, 64), strings.Join(holders, ", "))
}
