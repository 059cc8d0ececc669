package deps

import (
	"slices"
	"strings"

	"github.com/understudy/understudy/toolset"
)

// mentionIndex finds the APIs a parameter description may name, without
// comparing the description with every API, so that inference takes time
// linear in the catalog rather than in its square. It offers a superset of
// the APIs inferFromText accepts, and mentions then decides each, so the
// edges are exactly those of offering every API (a test holds it to that).
//
// inferFromText accepts an API of another tool whose standardized name
// other APIs share ("search", "get_user") only when the text names its
// tool too. So the lookups below hold only the APIs with a name of their
// own; the others are offered when their tool is the parameter's own or
// one the text names, found by the tools' names and titles.
type mentionIndex struct {
	apis []namedAPI
	// quoted maps a spelling written in backticks (raw or standardized,
	// without the backticks) to the APIs with that spelling.
	quoted map[string][]int32
	// words maps a standardized name of four or more bytes to its API,
	// and toolWords a tool's standardized name or title to the tool.
	words     map[string][]int32
	toolWords map[string][]int32
	// prefixes holds every token-aligned prefix of those names ("get",
	// "get_user" of "get_user_posts"), so a walk along the description's
	// tokens stops as soon as no name can go on.
	prefixes map[string]bool
	// tails maps a path's last two segments ("/properties/list") to its
	// APIs; maxTail is the longest.
	tails   map[string][]int32
	maxTail int
	// odd are APIs whose spelling holds a backtick, which no lookup
	// finds: every description is offered them.
	odd []int32
	// tools are the catalog's tools, each with its APIs' indexes.
	tools  []toolAPIs
	toolOf map[*toolset.Tool]int32
}

type toolAPIs struct {
	tool *toolset.Tool
	apis []int32
}

func newMentionIndex(apis []namedAPI, byName map[string][]*toolset.API) *mentionIndex {
	ix := &mentionIndex{apis: apis, quoted: map[string][]int32{}, words: map[string][]int32{}, toolWords: map[string][]int32{},
		prefixes: map[string]bool{}, tails: map[string][]int32{}, toolOf: map[*toolset.Tool]int32{}}
	for i, na := range apis {
		id := int32(i)
		if na.Tool != nil {
			ti, ok := ix.toolOf[na.Tool]
			if !ok {
				ti = int32(len(ix.tools))
				ix.toolOf[na.Tool] = ti
				ix.tools = append(ix.tools, toolAPIs{tool: na.Tool})
				for _, w := range uniq(na.Tool.StandardizedName, na.toolTitle) {
					ix.addWord(ix.toolWords, w, ti)
				}
			}
			ix.tools[ti].apis = append(ix.tools[ti].apis, id)
		}
		for _, q := range na.quoted {
			if strings.Contains(q[1:len(q)-1], "`") {
				ix.odd = appendOnce(ix.odd, id)
			}
		}
		if len(byName[na.name]) > 1 {
			continue // offered with its tool only
		}
		for _, q := range na.quoted {
			if s := q[1 : len(q)-1]; !strings.Contains(s, "`") {
				ix.quoted[s] = appendOnce(ix.quoted[s], id)
			}
		}
		if len(na.name) >= 4 {
			ix.addWord(ix.words, na.name, id)
		}
		if na.pathTail != "" {
			ix.tails[na.pathTail] = append(ix.tails[na.pathTail], id)
			ix.maxTail = max(ix.maxTail, len(na.pathTail))
		}
	}
	return ix
}

// addWord indexes a standardized name for the token walk.
func (ix *mentionIndex) addWord(m map[string][]int32, w string, id int32) {
	if w == "" {
		return
	}
	m[w] = appendOnce(m[w], id)
	for j := 0; j < len(w); j++ {
		if w[j] == '_' {
			ix.prefixes[w[:j]] = true
		}
	}
	ix.prefixes[w] = true
}

func appendOnce(s []int32, id int32) []int32 {
	if len(s) > 0 && s[len(s)-1] == id {
		return s
	}
	return append(s, id)
}

// candidates appends to out the indexes of the APIs a description of a
// parameter of self may name, sorted and without repeats: lower is the
// text in lower case, norm its normalised form (see normalise).
func (ix *mentionIndex) candidates(self *toolset.Tool, lower, norm string, out []int32) []int32 {
	if norm == "__" {
		// No word at all: every tool without a title counts as named
		// (see inferFromText), so offer everything.
		for i := range ix.apis {
			out = append(out, int32(i))
		}
		return out
	}
	out = append(out, ix.odd...)
	if ti, ok := ix.toolOf[self]; ok {
		out = append(out, ix.tools[ti].apis...)
	}
	// `spelling`: every stretch between two backticks.
	prev := -1
	for i := 0; i < len(lower); i++ {
		if lower[i] != '`' {
			continue
		}
		if prev >= 0 {
			out = append(out, ix.quoted[lower[prev+1:i]]...)
		}
		prev = i
	}
	// _name_: runs of whole tokens of the normalised text, which is
	// "_tok_tok_…_": a run from a token to a later one is the substring
	// between their '_'s.
	for start := 0; start < len(norm)-1; start++ {
		if norm[start] != '_' {
			continue
		}
		from := start + 1
		for end := from; end < len(norm); end++ {
			if norm[end] != '_' {
				continue
			}
			run := norm[from:end]
			if !ix.prefixes[run] {
				break
			}
			out = append(out, ix.words[run]...)
			for _, ti := range ix.toolWords[run] {
				out = append(out, ix.tools[ti].apis...)
			}
		}
	}
	// /seg/seg: from every '/', each end within reach of the longest tail
	// at which a tail may end (the text's end or a character no name has).
	if len(ix.tails) > 0 {
		for start := strings.IndexByte(lower, '/'); start >= 0; {
			limit := min(len(lower), start+ix.maxTail)
			for end := start + 2; end <= limit; end++ {
				if end == len(lower) || !isNameChar(lower[end]) {
					out = append(out, ix.tails[lower[start:end]]...)
				}
			}
			next := strings.IndexByte(lower[start+1:], '/')
			if next < 0 {
				break
			}
			start += 1 + next
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}
