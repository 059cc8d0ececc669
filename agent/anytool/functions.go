package anytool

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/understudy/understudy/toolset"
)

// Table 10's functions, by level.
const (
	FnToolsInCategory   = "get_tools_in_category"
	FnToolDescriptions  = "get_tool_descriptions"
	FnAPIsInTool        = "get_APIs_in_tool"
	FnAPIDetail         = "get_API_detail"
	FnCreateCategory    = "create_agent_category_level"
	FnCreateTool        = "create_agent_tool_level"
	FnAddAPIs           = "add_API_into_API_pool"
	FnCheckSolvable     = "check_if_request_solvable"
	FnFinishSearch      = "finish_search"
	levelMeta           = "meta"
	levelCategory       = "category"
	levelTool           = "tool"
	maxListedTools      = 200
	maxDescriptionBytes = 300
)

// MaxToolsPerAgent is how many tools a category agent may hand one tool agent (Table 17).
const MaxToolsPerAgent = 5

func fn(name, desc string, props map[string]any, required ...string) toolset.OpenAITool {
	params := map[string]any{"type": "object", "properties": props}
	if len(required) > 0 {
		req := make([]any, len(required))
		for i, r := range required {
			req[i] = r
		}
		params["required"] = req
	}
	return toolset.OpenAITool{Type: "function", Function: toolset.OpenAIFunction{Name: name, Description: desc, Parameters: params}}
}

func str(desc string) map[string]any { return map[string]any{"type": "string", "description": desc} }
func strs(desc string) map[string]any {
	return map[string]any{"type": "array", "items": map[string]any{"type": "string"}, "description": desc}
}

var (
	toolsInCategory = fn(FnToolsInCategory, "List the names of the tools in a category.",
		map[string]any{"category": str("The category's name."), "offset": map[string]any{"type": "integer", "description": "Skip this many names (for a long list)."}}, "category")
	toolDescriptions = fn(FnToolDescriptions, "Give the description of each named tool.",
		map[string]any{"tools": strs("Tool names.")}, "tools")
	createCategory = fn(FnCreateCategory, "Create an agent that searches one category for tools that fit the query.",
		map[string]any{"category": str("The category's name.")}, "category")
	createTool = fn(FnCreateTool, fmt.Sprintf("Create an agent that searches the APIs of up to %d related tools of your category.", MaxToolsPerAgent),
		map[string]any{"tools": strs("Tool names, all of your category.")}, "tools")
	apisInTool = fn(FnAPIsInTool, "List the names of a tool's APIs.",
		map[string]any{"tool": str("One of your tools.")}, "tool")
	apiDetail = fn(FnAPIDetail, "Give the documentation of each named API of a tool: description and parameters.",
		map[string]any{"tool": str("One of your tools."), "apis": strs("API names of that tool.")}, "tool", "apis")
	addAPIs = fn(FnAddAPIs, "Add APIs of your tools to the candidate pool the solver will use.",
		map[string]any{"apis": strs("API names of your tools.")}, "apis")
	checkSolvable = fn(FnCheckSolvable, "Check whether the APIs now in the candidate pool are enough to solve the query. Returns True or False.",
		map[string]any{})
	finishSearch = fn(FnFinishSearch, "Say that your search is complete.", map[string]any{})
)

// functionsOf are the functions an agent of a level may call (Table 10).
func functionsOf(level string) []toolset.OpenAITool {
	switch level {
	case levelMeta:
		return []toolset.OpenAITool{createCategory, toolsInCategory, toolDescriptions, finishSearch}
	case levelCategory:
		return []toolset.OpenAITool{createTool, toolsInCategory, toolDescriptions, finishSearch}
	}
	return []toolset.OpenAITool{apisInTool, apiDetail, addAPIs, checkSolvable, finishSearch}
}

// hierarchy is the catalog as the agents browse it.
type hierarchy struct {
	categories []string
	byCategory map[string]*toolset.Category
	// tools finds tools by lower-cased display and standardized name.
	tools map[string][]*toolset.Tool
}

func newHierarchy(c *toolset.Catalog) *hierarchy {
	h := &hierarchy{byCategory: map[string]*toolset.Category{}, tools: map[string][]*toolset.Tool{}}
	for _, cat := range c.Categories {
		if len(cat.Tools) == 0 {
			continue
		}
		h.categories = append(h.categories, cat.Name)
		h.byCategory[strings.ToLower(cat.Name)] = cat
		for _, t := range cat.Tools {
			for _, k := range []string{strings.ToLower(t.Name), strings.ToLower(t.StandardizedName)} {
				if !slices.Contains(h.tools[k], t) {
					h.tools[k] = append(h.tools[k], t)
				}
			}
		}
	}
	return h
}

func (h *hierarchy) category(name string) *toolset.Category {
	return h.byCategory[strings.ToLower(strings.TrimSpace(name))]
}

// tool finds a tool by name, preferring one of category (when set).
func (h *hierarchy) tool(name, category string) *toolset.Tool {
	ts := h.tools[strings.ToLower(strings.TrimSpace(name))]
	for _, t := range ts {
		if category == "" || t.Category == category {
			return t
		}
	}
	if category == "" && len(ts) > 0 {
		return ts[0]
	}
	return nil
}

// argsError is a function call's bad arguments, shown to the model.
type argsError struct{ msg string }

func (e *argsError) Error() string { return e.msg }

func decodeArgs(raw json.RawMessage, into any) error {
	if len(raw) == 0 {
		raw = json.RawMessage("{}")
	}
	if err := json.Unmarshal(raw, into); err != nil {
		return &argsError{"the arguments are not the function's JSON object: " + err.Error()}
	}
	return nil
}

// observation is a function's result as the agent reads it, in
// ToolBench's {"error", "response"} envelope.
func observation(errText string, response any) string {
	b, _ := json.Marshal(struct {
		Error    string `json:"error"`
		Response any    `json:"response"`
	}{errText, response})
	return string(b)
}

func clipText(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := n
	for cut > 0 && (s[cut]&0xC0) == 0x80 {
		cut--
	}
	return s[:cut] + "…"
}

// apiDoc is an API's documentation as get_API_detail and the solvable check show it.
type apiDoc struct {
	Name        string     `json:"name"`
	Tool        string     `json:"tool,omitempty"`
	Description string     `json:"description,omitempty"`
	Method      string     `json:"method,omitempty"`
	Required    []paramDoc `json:"required_parameters,omitempty"`
	Optional    []paramDoc `json:"optional_parameters,omitempty"`
}

type paramDoc struct {
	Name        string `json:"name"`
	Type        string `json:"type,omitempty"`
	Description string `json:"description,omitempty"`
}

func docOf(a *toolset.API, withTool bool) apiDoc {
	d := apiDoc{Name: a.Name, Description: clipText(a.Description, 2*maxDescriptionBytes), Method: a.Method}
	if withTool && a.Tool != nil {
		d.Tool = a.Tool.Name
	}
	for _, p := range a.Params {
		pd := paramDoc{Name: p.Name, Type: p.RawType, Description: clipText(p.Description, maxDescriptionBytes)}
		if pd.Type == "" {
			pd.Type = string(p.Kind)
		}
		if p.Required {
			d.Required = append(d.Required, pd)
		} else {
			d.Optional = append(d.Optional, pd)
		}
	}
	return d
}
