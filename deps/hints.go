package deps

import (
	"regexp"
	"strings"

	"github.com/understudy/understudy/toolset"
)

// Dependency hints are the sentences of documentation that say where a
// value comes from ("`fromId` can be retrieved from `flights_auto_complete`
// (data->id)"). Seed 004's Task 7 measures whether a model infers a chain;
// with the hints served it measures whether it follows directions. The
// same cues that infer edges from documentation (Infer) find them here.

// HintsStripped counts what StripHints removed.
type HintsStripped struct {
	// Texts counts the descriptions (tool, API, parameter, parameter
	// schema) that lost a hint; Annotations the parameters whose x-depends
	// were dropped from the served catalog.
	Texts       int `json:"texts"`
	Annotations int `json:"annotations"`
}

// sentenceEnd splits documentation into sentences: a full stop, question
// or exclamation mark followed by space, or a line break.
var sentenceEnd = regexp.MustCompile(`[.!?](?:\s+|$)|\n+`)

// StripHintText removes from s every clause that names a value's source:
// from the start of a sentence holding a cue to the end of the response
// path it names (so that an example after it stays), or the whole sentence
// when it names no path. Text without a cue comes back unchanged.
func StripHintText(s string) string {
	if !cues.MatchString(s) {
		return s
	}
	var b strings.Builder
	start := 0
	ends := sentenceEnd.FindAllStringIndex(s, -1)
	ends = append(ends, []int{len(s), len(s)})
	for _, e := range ends {
		if e[1] < start || e[0] < start {
			continue
		}
		sent := s[start:e[1]]
		start = e[1]
		if sent == "" {
			continue
		}
		loc := cues.FindStringIndex(sent)
		if loc == nil {
			b.WriteString(sent)
			continue
		}
		// The clause ends after the path it names, with its bracket.
		if p := pathInText.FindStringIndex(sent[loc[1]:]); p != nil {
			cut := loc[1] + p[1]
			for cut < len(sent) && strings.ContainsRune(")]`'\"", rune(sent[cut])) {
				cut++
			}
			if rest := strings.TrimLeft(sent[cut:], " ,;:"); strings.TrimSpace(strings.Trim(rest, ".")) != "" {
				b.WriteString(rest)
			}
		}
	}
	return strings.TrimSpace(b.String())
}

// StripHints removes dependency hints from every description the catalog
// serves, tool, API and parameter (and a parameter's schema, copied
// first, since schemas are shared), and drops the x-depends annotations
// from its parameters. Build the dependency graph before: it keeps the
// edges, and the sandbox goes on enforcing provenance with them. The
// catalog is changed in place, before any call validates.
func StripHints(c *toolset.Catalog) HintsStripped {
	var n HintsStripped
	strip := func(s *string) {
		if t := StripHintText(*s); t != *s {
			*s = t
			n.Texts++
		}
	}
	for _, t := range c.Tools() {
		strip(&t.Description)
		for _, a := range t.APIs {
			strip(&a.Description)
			for _, p := range a.Params {
				strip(&p.Description)
				if p.Schema != nil && cues.MatchString(p.Schema.Description) {
					cp := *p.Schema
					cp.Description = StripHintText(cp.Description)
					p.Schema = &cp
					n.Texts++
				}
				if len(p.Depends) > 0 {
					p.Depends = nil
					n.Annotations++
				}
			}
		}
	}
	return n
}
