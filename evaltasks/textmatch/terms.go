package textmatch

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
	"strings"
)

// Terms is the hand-written vocabulary of the rule scorers (terms.json):
// the words people use for each API parameter, the common aliases of
// names, and the everyday names of time zones.
type Terms struct {
	// Params maps "tool.api" to parameter name to the words and phrases
	// that ask for it ("check-in date", "how far").
	Params map[string]map[string][]string `json:"params"`
	// Aliases are groups of names that mean the same ("renminbi", "yuan", "CNY").
	Aliases [][]string `json:"aliases"`
	// Zones maps an IANA time zone to its everyday names.
	Zones map[string][]string `json:"zones"`
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
	return &t, nil
}

// aliases are the other names of a name (none when it has no group).
func (t *Terms) aliases(name string) []string {
	k := Normalized(name)
	for _, g := range t.Aliases {
		for _, n := range g {
			if Normalized(n) == k {
				return g
			}
		}
	}
	return nil
}
