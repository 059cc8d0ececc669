package dataset

import (
	"fmt"
	"sort"
	"strings"
	"unicode"
)

// Task 1 asks whether a text needs a tool. If the words that frame a text
// (its opener, its closer, its first or last words) tell Type I from
// Type II, an agent can score well without reading the question, so the
// validator measures how well each such surface feature alone predicts
// the label and fails the dataset when one does.

// LeakageMinSupport is the number of Type-I and Type-II records a feature
// needs before its precision is judged: below it, one phrasing used by a
// handful of records of one type is chance, not a pattern an agent could
// learn.
const LeakageMinSupport = 10

// LeakageMaxPrecision is the precision at or above which a feature leaks
// the label. A feature that carries no label is right at the base rate
// (about 0.54 for Type I, 0.46 for Type II in the shipped dataset); the
// chance that a label-free feature of 10 records is right 9 times or more
// is about 2 % (Type I) and 0.6 % (Type II), so 0.9 rarely flags honest
// phrasing, while every leak measured on the earlier dataset (phrases such
// as "Quick question:" or "A ballpark is fine." on 0.94–1.00 Type-I
// records, "Can you" on 1.00 Type-II records) is far above it.
const LeakageMaxPrecision = 0.9

// leakageWorst is how many features the report lists.
const leakageWorst = 10

// Feature kinds.
const (
	FeatureFirstWord  = "first word"
	FeatureFirstTwo   = "first two words"
	FeatureLastTwo    = "last two words"
	FeatureOpener     = "opener"
	FeatureCloser     = "closer"
	labelNoTool       = "no tool"
	labelNeedsTool    = "needs a tool"
	maxFramingWords   = 6
	minFramingWords   = 1
	framingSeparators = ":—–,!;("
)

// LeakageFeature is one surface feature and how well it alone predicts
// Task 1's label.
type LeakageFeature struct {
	Kind    string `json:"kind"`
	Value   string `json:"value"`
	Support int    `json:"support"`
	// NoTool is how many of the records with the feature are Type I.
	NoTool int `json:"no_tool"`
	// Predicts is the label the feature predicts best ("no tool" or
	// "needs a tool") and Precision how often that prediction is right.
	Predicts  string  `json:"predicts"`
	Precision float64 `json:"precision"`
}

func (f LeakageFeature) String() string {
	return fmt.Sprintf("%s %q → %s: precision %.2f on %d records (%d Type I)", f.Kind, f.Value, f.Predicts, f.Precision, f.Support, f.NoTool)
}

// LeakageReport is the measure of how much the surface of Task 1's texts
// gives the label away.
type LeakageReport struct {
	// Records are the Type-I and Type-II records, NoTool the Type-I ones.
	Records int `json:"records"`
	NoTool  int `json:"no_tool"`
	// Worst are the features with at least LeakageMinSupport records, the
	// most predictive first; Leaks all of them at or above
	// LeakageMaxPrecision.
	Worst []LeakageFeature `json:"worst"`
	Leaks []LeakageFeature `json:"leaks,omitempty"`
	// FramingRuleF1 is Task 1's F1 (positive class: needs a tool) of the
	// rule that answers "no tool" exactly when a text's opener or closer is
	// one whose records are mostly Type I (fitted on the dataset itself,
	// so the best such rule), AlwaysCallF1 that of always answering
	// "needs a tool". FramingRuleNoTool counts the records the rule sends
	// to "no tool".
	FramingRuleF1     float64 `json:"framing_rule_f1"`
	AlwaysCallF1      float64 `json:"always_call_f1"`
	FramingRuleNoTool int     `json:"framing_rule_no_tool"`
}

// framingWords splits a text into lower-cased words with punctuation
// stripped from both ends ("What's" → "what's" → "whats").
func framingWords(text string) []string {
	var out []string
	for _, f := range strings.Fields(text) {
		var b strings.Builder
		for _, r := range strings.ToLower(f) {
			if unicode.IsLetter(r) || unicode.IsDigit(r) {
				b.WriteRune(r)
			}
		}
		if b.Len() > 0 {
			out = append(out, b.String())
		}
	}
	return out
}

// Opener is the phrase that frames the start of a text: the words before
// the first separator (colon, dash, comma, exclamation mark) when they are
// at most six, such as "Quick question:" or "Out of curiosity,"; else the
// first two words ("ok so …"). It is lower-cased without punctuation.
func Opener(text string) string {
	text = strings.TrimSpace(text)
	if i := strings.IndexAny(text, framingSeparators); i > 0 {
		if w := framingWords(text[:i]); len(w) >= minFramingWords && len(w) <= maxFramingWords {
			return strings.Join(w, " ")
		}
	}
	w := framingWords(text)
	if len(w) > 2 {
		w = w[:2]
	}
	return strings.Join(w, " ")
}

// Closer is the phrase that frames the end of a text: its last sentence or
// parenthetical when the text has another before it and the last is at
// most six words ("Thanks!", "A ballpark is fine.", "(for a quiz
// tonight)"); else the last two words.
func Closer(text string) string {
	text = strings.TrimSpace(text)
	body := strings.TrimRight(text, ".!?)… ")
	cut := -1
	for i := len(body) - 1; i > 0; i-- {
		c := body[i]
		if c == '(' || (c == ' ' && strings.ContainsAny(body[i-1:i], ".!?")) {
			cut = i
			break
		}
	}
	if cut > 0 {
		if w := framingWords(text[cut:]); len(w) >= minFramingWords && len(w) <= maxFramingWords {
			return strings.Join(w, " ")
		}
	}
	w := framingWords(text)
	if len(w) > 2 {
		w = w[len(w)-2:]
	}
	return strings.Join(w, " ")
}

// leakageFeatures lists a text's surface features, each kind once.
func leakageFeatures(text string) map[string]string {
	w := framingWords(text)
	out := map[string]string{FeatureOpener: Opener(text), FeatureCloser: Closer(text)}
	if len(w) > 0 {
		out[FeatureFirstWord] = w[0]
	}
	if len(w) > 1 {
		out[FeatureFirstTwo] = w[0] + " " + w[1]
		out[FeatureLastTwo] = w[len(w)-2] + " " + w[len(w)-1]
	}
	return out
}

// MeasureLeakage measures, over the Type-I and Type-II records, how well
// each surface feature alone predicts Task 1's label, and the F1 of the
// best rule that decides from the opener and closer alone.
func MeasureLeakage(ins []Instruction) *LeakageReport {
	type count struct{ n, noTool int }
	counts := map[[2]string]*count{}
	rep := &LeakageReport{}
	var feats []map[string]string
	var labels []bool // true: Type I
	for _, in := range ins {
		if in.Type != TypeNoTool && in.Type != TypeSufficient {
			continue
		}
		rep.Records++
		noTool := in.Type == TypeNoTool
		if noTool {
			rep.NoTool++
		}
		f := leakageFeatures(in.Text)
		feats, labels = append(feats, f), append(labels, noTool)
		for kind, val := range f {
			k := [2]string{kind, val}
			c := counts[k]
			if c == nil {
				c = &count{}
				counts[k] = c
			}
			c.n++
			if noTool {
				c.noTool++
			}
		}
	}
	if rep.Records == 0 {
		return rep
	}
	base := float64(rep.NoTool) / float64(rep.Records)
	var all []LeakageFeature
	for k, c := range counts {
		if c.n < LeakageMinSupport {
			continue
		}
		f := LeakageFeature{Kind: k[0], Value: k[1], Support: c.n, NoTool: c.noTool}
		pNo := float64(c.noTool) / float64(c.n)
		if pNo >= 1-pNo {
			f.Predicts, f.Precision = labelNoTool, pNo
		} else {
			f.Predicts, f.Precision = labelNeedsTool, 1-pNo
		}
		all = append(all, f)
	}
	sort.Slice(all, func(i, j int) bool {
		a, b := all[i], all[j]
		if a.Precision != b.Precision {
			return a.Precision > b.Precision
		}
		if a.Support != b.Support {
			return a.Support > b.Support
		}
		if a.Kind != b.Kind {
			return a.Kind < b.Kind
		}
		return a.Value < b.Value
	})
	for _, f := range all {
		if f.Precision >= LeakageMaxPrecision {
			rep.Leaks = append(rep.Leaks, f)
		}
	}
	if len(all) > leakageWorst {
		all = all[:leakageWorst]
	}
	rep.Worst = all

	// The framing rule: "no tool" when the opener or the closer is a
	// phrase (seen often enough to be learnt) that is more often Type I
	// than the base rate says.
	mostlyNoTool := func(kind, val string) bool {
		c := counts[[2]string{kind, val}]
		return c != nil && c.n >= LeakageMinSupport && float64(c.noTool)/float64(c.n) > base
	}
	var tp, fp, fn int
	for i, f := range feats {
		sayNoTool := mostlyNoTool(FeatureOpener, f[FeatureOpener]) || mostlyNoTool(FeatureCloser, f[FeatureCloser])
		if sayNoTool {
			rep.FramingRuleNoTool++
		}
		switch needs := !labels[i]; {
		case needs && !sayNoTool:
			tp++
		case needs && sayNoTool:
			fn++
		case !needs && !sayNoTool:
			fp++
		}
	}
	rep.FramingRuleF1 = countsF1(tp, fp, fn)
	rep.AlwaysCallF1 = countsF1(rep.Records-rep.NoTool, rep.NoTool, 0)
	return rep
}

// countsF1 is F1 from true positives, false positives and false negatives.
func countsF1(tp, fp, fn int) float64 {
	if tp == 0 {
		return 0
	}
	return 2 * float64(tp) / float64(2*tp+fp+fn)
}

// checkLeakage fails the dataset when a surface feature predicts Task 1's
// label or the framing rule beats always calling a tool.
func (v *validator) checkLeakage(ins []Instruction) {
	rep := MeasureLeakage(ins)
	v.rep.Leakage = rep
	for _, f := range rep.Leaks {
		v.problem(nil, "leakage", "%s (threshold %.2f at ≥ %d records): the words around the question give Task 1's label away", f, LeakageMaxPrecision, LeakageMinSupport)
	}
	// A tiny margin absorbs float rounding only.
	if rep.NoTool > 0 && rep.NoTool < rep.Records && rep.FramingRuleF1 > rep.AlwaysCallF1+1e-9 {
		v.problem(nil, "leakage", "deciding from the opener or closer alone scores Task 1 F1 %.3f, better than always calling a tool (%.3f)", rep.FramingRuleF1, rep.AlwaysCallF1)
	}
}
