package toolset

import (
	"cmp"
	"fmt"
	"hash/fnv"
	"regexp"
	"slices"
	"strings"

	"github.com/understudy/understudy/toolset/internal/readkit"
)

// NameStyle chooses how exported function names are spelt.
type NameStyle int

const (
	// NameDotted is "<tool>-<api>", the catalog ID "<tool>.<api>" with the
	// dot (not allowed in function names) spelt as '-', which standardized
	// names never contain.
	NameDotted NameStyle = iota
	// NameToolBench is ToolBench's "<api>_for_<tool>", cut to its last 64
	// characters as ToolBench does.
	NameToolBench
)

// parameters is the JSON Schema of an API's arguments as exported in a
// style: in ToolBench's, each parameter under the name ToolBench shows
// models (ToolBenchParamName), several spelt alike being one property (the
// first's schema; required when one of them is), as in ToolBench's own
// schemas. A call may send the values back under those names: see Validate.
func parameters(a *API, style NameStyle) map[string]any {
	schema := a.InputSchema()
	if style != NameToolBench {
		return schema
	}
	props, _ := schema["properties"].(map[string]any)
	renamed := make(map[string]any, len(props))
	required := []string{}
	for _, p := range a.Params {
		name := cmp.Or(ToolBenchParamName(p.Name), p.Name)
		if _, dup := renamed[name]; !dup {
			renamed[name] = props[p.Name]
		}
		if p.Required && !slices.Contains(required, name) {
			required = append(required, name)
		}
	}
	schema["properties"] = renamed
	schema["required"] = required
	return schema
}

// ExportOptions tunes OpenAITools.
type ExportOptions struct {
	Style NameStyle
	// MaxDescription cuts each API description to this many bytes before it
	// is combined with the tool's (ToolBench uses 256); 0 means 1024.
	MaxDescription int
}

// functionNameRE is the rule OpenAI (and most providers) apply to function names.
var functionNameRE = regexp.MustCompile(`^[a-zA-Z0-9_-]{1,64}$`)

// OpenAITools exports every API as an OpenAI function tool, in catalog order.
// The description combines tool and API the way ToolBench's prompts do:
//
//	This is the subfunction for tool "<tool>", you can use this tool.The description of this function is: "<api description>"
//
// with the tool's own description appended in the dotted style (ToolBench
// puts it in the system prompt instead).
func OpenAITools(c *Catalog, opts ExportOptions) []OpenAITool {
	max := opts.MaxDescription
	if max <= 0 {
		max = 1024
	}
	var out []OpenAITool
	for _, a := range c.APIs() {
		out = append(out, OpenAITool{Type: "function", Function: OpenAIFunction{
			Name:        ExportName(a, opts.Style),
			Description: exportDescription(a, opts.Style, max),
			Parameters:  parameters(a, opts.Style),
		}})
	}
	return out
}

// MaxOpenAIDescription bounds an exported function's whole description:
// OpenAI refuses longer ones. The native catalog keeps the full text.
const MaxOpenAIDescription = 1024

func exportDescription(a *API, style NameStyle, max int) string {
	tool := ""
	if a.Tool != nil {
		tool = a.Tool.StandardizedName
		if style == NameToolBench {
			// ToolBench names the tool as its file does (see
			// ToolBenchFunctionName).
			tool = a.Tool.baseName()
		}
	}
	d := strings.TrimSpace(cutSentence(strings.TrimSpace(a.Description), max))
	td := ""
	if style == NameDotted && a.Tool != nil {
		td = strings.TrimSpace(cutSentence(strings.TrimSpace(a.Tool.Description), max))
	}
	build := func(d, td string) string {
		var b strings.Builder
		// ToolBench's template, verbatim (no space after "tool.", no escaping).
		b.WriteString(`This is the subfunction for tool "` + tool + `", you can use this tool.`)
		if d != "" {
			b.WriteString(`The description of this function is: "` + d + `"`)
		}
		if td != "" {
			b.WriteString(` The tool is described as: "` + td + `"`)
		}
		return b.String()
	}
	out := build(d, td)
	// Over the limit, the tool's description gives way first (the
	// function's own says what it does), each cut at a sentence.
	for over := len(out) - MaxOpenAIDescription; over > 0; over = len(out) - MaxOpenAIDescription {
		switch {
		case td != "":
			// No fragment of the tool's: whole sentences, or nothing.
			td = strings.TrimSpace(cutSentence(td, len(td)-over))
			if !strings.HasSuffix(td, ".") && !strings.HasSuffix(td, "!") && !strings.HasSuffix(td, "?") {
				td = ""
			}
		case d != "":
			d = strings.TrimSpace(cutSentence(d, len(d)-over))
		default:
			return readkit.Cut(out, MaxOpenAIDescription)
		}
		out = build(d, td)
	}
	return out
}

// cutSentence shortens s to at most n bytes at the end of a sentence ("."
// "!" or "?" before a space or the end), else at a space, else anywhere
// between UTF-8 sequences; "" when n leaves nothing.
func cutSentence(s string, n int) string {
	if len(s) <= n {
		return s
	}
	if n <= 0 {
		return ""
	}
	c := readkit.Cut(s, n)
	end := -1
	for i := 0; i < len(c); i++ {
		if (c[i] == '.' || c[i] == '!' || c[i] == '?') && (i+1 == len(s) || s[i+1] == ' ' || s[i+1] == '\n') {
			end = i + 1
		}
	}
	if end > 0 {
		return c[:end]
	}
	if i := strings.LastIndexByte(c, ' '); i > 0 {
		return c[:i]
	}
	return c
}

// ExportName is the function name an API is exported under; it always
// matches ^[a-zA-Z0-9_-]{1,64}$. Catalog.APIByExportName reverses it.
func ExportName(a *API, style NameStyle) string {
	if style == NameToolBench {
		return toolBenchFunctionName(a)
	}
	tool := ""
	if a.Tool != nil {
		tool = a.Tool.StandardizedName
	}
	name := tool + "-" + a.StandardizedName()
	if functionNameRE.MatchString(name) {
		return name
	}
	return hashedName(name, a)
}

// hashedName keeps a readable, cleaned prefix of a name that is too long or
// holds characters (CJK) a function name cannot carry, and makes it unique
// with a hash of the API's ID.
func hashedName(name string, a *API) string {
	h := fnv.New32a()
	h.Write([]byte(a.ID()))
	suffix := fmt.Sprintf("_%08x", h.Sum32())
	clean := unsafeNameChars.ReplaceAllString(name, "_")
	if len(clean) > MaxAPINameLen-len(suffix) {
		clean = clean[:MaxAPINameLen-len(suffix)]
	}
	return clean + suffix
}

// toolBenchFunctionName is FunctionName as ToolBench sends it to a model:
// its last 64 characters. A name with characters outside [a-zA-Z0-9_-]
// (ToolBench keeps CJK ideographs) is cleaned and made unique by a hash.
func toolBenchFunctionName(a *API) string { return cutFunctionName(a, a.FunctionName()) }

// ToolBenchFunctionName is the name ToolBench itself offers the API to a
// model under: "<api>_for_<tool>" with the tool's name as its file gives
// it, cut as ExportName cuts it. It is ExportName's NameToolBench but for
// a category twin, a tool whose name a tool of another category has too:
// the catalog calls it "<name>_for_<category>" to keep the two apart,
// while ToolBench, which offers a query the tools of the categories its
// api_list names, calls both by their one name. Two APIs may share this
// name; ToolBenchNames names a set offered together.
func ToolBenchFunctionName(a *API) string {
	if a.Tool == nil {
		return toolBenchFunctionName(a)
	}
	return cutFunctionName(a, a.StandardizedName()+"_for_"+a.Tool.baseName())
}

// ToolBenchNames are the function names of APIs offered to a model
// together, in their order: each API's ToolBenchFunctionName, unless an
// earlier API of the set has it (the same tool of two categories offered
// at once), when the tool is named with its category, "<api>_for_<name>_
// for_<category>", as the catalog names the renamed twin.
func ToolBenchNames(apis []*API) []string {
	out := make([]string, len(apis))
	taken := map[string]*API{}
	for i, a := range apis {
		name := ToolBenchFunctionName(a)
		if prev, ok := taken[name]; ok && prev != a {
			if a.Tool != nil {
				name = cutFunctionName(a, a.StandardizedName()+"_for_"+qualifiedName(a.Tool))
			}
			if prev, ok := taken[name]; ok && prev != a {
				name = hashedName(name, a)
			}
		}
		taken[name] = a
		out[i] = name
	}
	return out
}

// cutFunctionName cuts a ToolBench function name of a as ToolBench does.
func cutFunctionName(a *API, name string) string {
	if unsafeNameChars.MatchString(name) || name == "" {
		return hashedName(name, a)
	}
	if len(name) > MaxAPINameLen {
		name = name[len(name)-MaxAPINameLen:]
	}
	return name
}

// APIByExportName finds an API by the name OpenAITools exported it under,
// in either style.
func (c *Catalog) APIByExportName(name string) *API {
	if c == nil {
		return nil
	}
	c.exportOnce.Do(func() {
		c.byExport = map[string]*API{}
		for _, a := range c.APIs() {
			for _, st := range []NameStyle{NameDotted, NameToolBench} {
				if _, taken := c.byExport[ExportName(a, st)]; !taken {
					c.byExport[ExportName(a, st)] = a
				}
			}
		}
	})
	return c.byExport[name]
}
