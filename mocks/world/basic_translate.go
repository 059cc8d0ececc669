package world

import (
	"fmt"
	"io/fs"
	"strings"
	"unicode"
)

// trPhrasebook indexes phrasebook.json: for every language, normalised
// phrase → entry.
type Phrasebook struct {
	Langs    []string                  `json:"-"`
	Entries  []map[string]string       `json:"-"`
	Index    map[string]map[string]int `json:"-"`
	MaxWords map[string]int            `json:"-"`
}

func loadPhrasebook(fsys fs.FS) (*Phrasebook, error) {
	var f struct {
		Comment   string              `json:"_comment"`
		Languages []string            `json:"languages"`
		Entries   []map[string]string `json:"entries"`
	}
	if err := readJSON(fsys, "phrasebook.json", &f); err != nil {
		return nil, err
	}
	pb := &Phrasebook{Langs: f.Languages, Entries: f.Entries, Index: map[string]map[string]int{}, MaxWords: map[string]int{}}
	known := map[string]bool{}
	for _, l := range f.Languages {
		known[l] = true
		pb.Index[l] = map[string]int{}
	}
	for i, e := range f.Entries {
		if e["en"] == "" {
			return nil, &WorldError{File: "phrasebook.json", Err: fmt.Errorf("entries[%d] has no English text", i)}
		}
		for l, text := range e {
			if !known[l] {
				return nil, &WorldError{File: "phrasebook.json", Err: fmt.Errorf("entries[%d]: language %q is not listed in languages", i, l)}
			}
			toks := PhraseTokens(text, l)
			key := strings.Join(toks, " ")
			if key == "" {
				continue
			}
			if _, dup := pb.Index[l][key]; !dup { // the first entry wins: "mañana" is "tomorrow"
				pb.Index[l][key] = i
			}
			pb.MaxWords[l] = max(pb.MaxWords[l], len(toks))
		}
	}
	return pb, nil
}

// unspaced languages are written without spaces between words; they are
// matched character by character.
func Unspaced(lang string) bool { return lang == "ja" || lang == "zh" }

// trTokens normalises text for matching: lowercase words, or single
// characters in unspaced languages, punctuation dropped.
func PhraseTokens(text, lang string) []string {
	text = strings.ToLower(text)
	if Unspaced(lang) {
		var out []string
		for _, r := range text {
			if unicode.IsLetter(r) || unicode.IsDigit(r) {
				out = append(out, string(r))
			}
		}
		return out
	}
	return strings.FieldsFunc(text, func(r rune) bool {
		return !(unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.Mn, r) || r == '\'' || r == '’' || r == '-')
	})
}
