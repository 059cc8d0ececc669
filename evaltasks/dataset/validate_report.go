package dataset

import (
	"fmt"
	"io"
	"maps"
	"slices"
	"sort"
	"strings"
	"text/tabwriter"
	"unicode"
)

// skeleton is a text's word bigrams once its values are masked: numbers
// become "#" and capitalised words that do not start a sentence become
// "N", so that one phrasing with other values counts as the same text.
func skeleton(text string) map[string]bool {
	var words []string
	sentenceStart := true
	for _, f := range strings.FieldsFunc(text, func(r rune) bool { return unicode.IsSpace(r) }) {
		core := strings.TrimFunc(f, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
		next := strings.ContainsAny(f[len(f)-1:], ".?!")
		switch {
		case core == "":
		case strings.IndexFunc(core, unicode.IsDigit) >= 0:
			words = append(words, "#")
		case !sentenceStart && unicode.IsUpper([]rune(core)[0]):
			words = append(words, "N")
		default:
			words = append(words, strings.ToLower(core))
		}
		sentenceStart = next
	}
	set := map[string]bool{}
	for i := range words {
		if i+1 < len(words) {
			set[words[i]+" "+words[i+1]] = true
		} else if len(words) == 1 {
			set[words[0]] = true
		}
	}
	return set
}

func jaccard(a, b map[string]bool) float64 {
	if len(a) == 0 && len(b) == 0 {
		return 1
	}
	inter := 0
	for k := range a {
		if b[k] {
			inter++
		}
	}
	return float64(inter) / float64(len(a)+len(b)-inter)
}

// TextSimilarity is the near-duplicate measure of the validator: the
// Jaccard similarity of two texts' word bigrams once their values are
// masked.
func TextSimilarity(a, b string) float64 { return jaccard(skeleton(a), skeleton(b)) }

// checkSimilarity reports near-duplicate texts within each type.
func (v *validator) checkSimilarity(ins []Instruction) {
	if v.opts.Similarity < 0 {
		return
	}
	sk := make([]map[string]bool, len(ins))
	for i := range ins {
		sk[i] = skeleton(ins[i].Text)
	}
	for i := range ins {
		for j := i + 1; j < len(ins); j++ {
			if ins[i].Type != ins[j].Type {
				continue
			}
			if s := jaccard(sk[i], sk[j]); s >= v.opts.Similarity {
				v.problem(&ins[j], "text", "near-duplicate of %s (similarity %.2f ≥ %.2f): %q vs %q", ins[i].ID, s, v.opts.Similarity, ins[j].Text, ins[i].Text)
			}
		}
	}
}

// WriteSummary prints the counts per type, scenario and tool, the type ×
// scenario coverage table, the APIs never covered and the problems.
func (r *ValidationReport) WriteSummary(w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "instructions: %d\n\n", r.Total)
	tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprint(tw, "type\t")
	for _, s := range Scenarios {
		fmt.Fprintf(tw, "%s\t", s)
	}
	fmt.Fprint(tw, "total\tpaper\t\n")
	types := []int{TypeNoTool, TypeSufficient, TypeMissing, TypeDependencies, TypeHighLevel}
	for _, t := range types {
		fmt.Fprintf(tw, "%s\t", roman(t))
		for _, s := range Scenarios {
			fmt.Fprintf(tw, "%d\t", r.ByTypeScen[t][s])
		}
		fmt.Fprintf(tw, "%d\t%d\t\n", r.ByType[t], PaperCounts[t])
	}
	fmt.Fprint(tw, "all\t")
	for _, s := range Scenarios {
		fmt.Fprintf(tw, "%d\t", r.ByScenario[s])
	}
	fmt.Fprintf(tw, "%d\t%d\t\n", r.Total, 372+326+195+141+50)
	if err := tw.Flush(); err != nil {
		return err
	}
	if n := r.ByScenario["unknown"]; n > 0 {
		fmt.Fprintf(&b, "(%d instructions with no known scenario)\n", n)
	}

	b.WriteString("\nper tool (instructions using it):\n")
	tw = tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
	tools := slices.Sorted(maps.Keys(r.ByTool))
	for _, t := range tools {
		fmt.Fprintf(tw, "  %s\t%d\n", t, r.ByTool[t])
	}
	if err := tw.Flush(); err != nil {
		return err
	}

	b.WriteString("\nper API (types I / II / III / IV / V):\n")
	tw = tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
	ids := slices.Sorted(maps.Keys(r.APICoverage))
	for _, id := range ids {
		c := r.APICoverage[id]
		fmt.Fprintf(tw, "  %s\t%d\t%d\t%d\t%d\t%d\n", id, c[1], c[2], c[3], c[4], c[5])
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if len(r.Uncovered) == 0 {
		b.WriteString("\nAPIs never covered: none\n")
	} else {
		fmt.Fprintf(&b, "\nAPIs never covered: %s\n", strings.Join(r.Uncovered, ", "))
	}
	if l := r.Leakage; l != nil && l.Records > 0 {
		fmt.Fprintf(&b, "\nTask 1 leakage (%d Type-I and Type-II texts, %d Type I):\n", l.Records, l.NoTool)
		fmt.Fprintf(&b, "  F1 deciding from the opener or closer alone: %.3f (\"no tool\" for %d texts); always calling a tool: %.3f\n", l.FramingRuleF1, l.FramingRuleNoTool, l.AlwaysCallF1)
		fmt.Fprintf(&b, "  most predictive features (≥ %d texts; fails at precision ≥ %.2f):\n", LeakageMinSupport, LeakageMaxPrecision)
		if len(l.Worst) == 0 {
			b.WriteString("    none\n")
		}
		for _, f := range l.Worst {
			b.WriteString("    " + f.String() + "\n")
		}
	}
	if len(r.Problems) == 0 {
		b.WriteString("\nOK: every check passed\n")
	} else {
		fmt.Fprintf(&b, "\nFAILED: %d problem(s)\n", len(r.Problems))
		probs := append([]Problem(nil), r.Problems...)
		sort.SliceStable(probs, func(i, j int) bool { return probs[i].String() < probs[j].String() })
		for _, p := range probs {
			b.WriteString("  " + p.String() + "\n")
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}
