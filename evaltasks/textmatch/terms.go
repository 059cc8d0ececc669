package textmatch

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
)

// Terms is the hand-written vocabulary of the rule scorers (terms.json):
// the words people use for each API parameter, words that mean the same in
// a request or a plan, APIs that do the same job, the common aliases of
// names, and the everyday names of time zones.
type Terms struct {
	// Params maps "tool.api" to parameter name to the words and phrases
	// that ask for it ("check-in date", "how far").
	Params map[string]map[string][]string `json:"params"`
	// Synonyms are groups of words and phrases that mean the same in a
	// plan's steps ("get", "fetch", "look up"; "average", "mean"). A word
	// may sit in several groups; two words mean the same when they share
	// one.
	Synonyms [][]string `json:"synonyms"`
	// Alternatives are groups of APIs ("tool.api") that do the same job:
	// a plan that uses any of them uses the group.
	Alternatives [][]string `json:"alternatives"`
	// Aliases are groups of names that mean the same ("renminbi", "yuan", "CNY").
	Aliases [][]string `json:"aliases"`
	// Zones maps an IANA time zone to its everyday names.
	Zones map[string][]string `json:"zones"`

	// groups maps a phrase's lemmas, space-joined, to the synonym and
	// alias groups it belongs to (alias groups numbered after the
	// synonym groups); members lists each group's phrases as lemmas.
	groups  map[string][]int
	members [][][]string
	// aliasOf maps a name's words, space-joined, to its alias group.
	aliasOf map[string]int
}

//go:embed terms.json
var termsJSON []byte

// Vocabulary is the embedded vocabulary, read once.
var Vocabulary = mustTerms(termsJSON)

func mustTerms(b []byte) *Terms {
	t, err := ParseTerms(b)
	if err != nil {
		panic(err)
	}
	return t
}

// TermsError reports a bad vocabulary file.
type TermsError struct{ Err error }

func (e *TermsError) Error() string { return "terms: " + e.Err.Error() }
func (e *TermsError) Unwrap() error { return e.Err }

// ParseTerms reads a vocabulary: unknown fields, empty entries and a name
// in two alias groups are errors.
func ParseTerms(b []byte) (*Terms, error) {
	var t Terms
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&t); err != nil {
		return nil, &TermsError{Err: err}
	}
	for api, ps := range t.Params {
		for p, syn := range ps {
			for _, s := range syn {
				if strings.TrimSpace(Normalized(s)) == "" {
					return nil, &TermsError{Err: fmt.Errorf("params %s.%s: empty synonym", api, p)}
				}
			}
		}
	}
	for i, g := range t.Synonyms {
		if len(g) < 2 {
			return nil, &TermsError{Err: fmt.Errorf("synonym group %d has fewer than 2 words", i)}
		}
		for _, w := range g {
			if len(Lemmas(w)) == 0 {
				return nil, &TermsError{Err: fmt.Errorf("synonym group %d: empty word", i)}
			}
		}
	}
	for i, g := range t.Alternatives {
		if len(g) < 2 {
			return nil, &TermsError{Err: fmt.Errorf("alternatives group %d has fewer than 2 APIs", i)}
		}
		for _, id := range g {
			if tool, api, ok := strings.Cut(id, "."); !ok || tool == "" || api == "" {
				return nil, &TermsError{Err: fmt.Errorf("alternatives group %d: %q is not tool.api", i, id)}
			}
		}
	}
	seen := map[string]int{}
	for i, g := range t.Aliases {
		if len(g) < 2 {
			return nil, &TermsError{Err: fmt.Errorf("alias group %d has fewer than 2 names", i)}
		}
		for _, n := range g {
			k := strings.TrimSpace(Normalized(n))
			if k == "" {
				return nil, &TermsError{Err: fmt.Errorf("alias group %d: empty name", i)}
			}
			if j, dup := seen[k]; dup && j != i {
				return nil, &TermsError{Err: fmt.Errorf("alias %q is in groups %d and %d", n, j, i)}
			}
			seen[k] = i
		}
	}
	t.aliasOf = seen
	t.index()
	return &t, nil
}

// index builds the meaning groups of Synonyms and Aliases.
func (t *Terms) index() {
	t.groups = map[string][]int{}
	for _, g := range append(slices.Clone(t.Synonyms), t.Aliases...) {
		id := len(t.members)
		var ms [][]string
		for _, w := range g {
			l := Lemmas(w)
			ms = append(ms, l)
			k := strings.Join(l, " ")
			if !slices.Contains(t.groups[k], id) {
				t.groups[k] = append(t.groups[k], id)
			}
		}
		t.members = append(t.members, ms)
	}
}

// Equivalents are the lemma sequences that mean what a phrase means: the
// phrase's own lemmas first, then those of every synonym or alias sharing
// a group with it.
func (t *Terms) Equivalents(phrase string) [][]string {
	own := Lemmas(phrase)
	if len(own) == 0 {
		return nil
	}
	out := [][]string{own}
	seen := map[string]bool{strings.Join(own, " "): true}
	for _, g := range t.groups[strings.Join(own, " ")] {
		for _, m := range t.members[g] {
			if k := strings.Join(m, " "); !seen[k] {
				seen[k] = true
				out = append(out, m)
			}
		}
	}
	return out
}

// Has tells whether a word or phrase is in a synonym or alias group.
func (t *Terms) Has(phrase string) bool {
	return len(t.groups[strings.Join(Lemmas(phrase), " ")]) > 0
}

// IsSynonym tells whether a word or phrase is in a synonym group (a word
// of plans, not a name).
func (t *Terms) IsSynonym(phrase string) bool {
	for _, g := range t.groups[strings.Join(Lemmas(phrase), " ")] {
		if g < len(t.Synonyms) {
			return true
		}
	}
	return false
}

// Same tells whether two words or phrases mean the same: equal lemmas, or
// a synonym or alias group holding both.
func (t *Terms) Same(a, b string) bool {
	ka, kb := strings.Join(Lemmas(a), " "), strings.Join(Lemmas(b), " ")
	if ka == kb {
		return ka != ""
	}
	for _, g := range t.groups[ka] {
		if slices.Contains(t.groups[kb], g) {
			return true
		}
	}
	return false
}

// AlternativesOf are the APIs that do the same job as api ("tool.api"),
// api included; nil when it has none.
func (t *Terms) AlternativesOf(api string) []string {
	for _, g := range t.Alternatives {
		if slices.Contains(g, api) {
			return g
		}
	}
	return nil
}

// aliases are the other names of a name (none when it has no group).
func (t *Terms) aliases(name string) []string {
	if i, ok := t.aliasOf[strings.Join(Words(name), " ")]; ok {
		return t.Aliases[i]
	}
	return nil
}
