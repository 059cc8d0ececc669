package toolset

import (
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"text/tabwriter"
)

// WriteSummary prints counts by scenario, category and tool, the number of
// (source API, dependent API) dependency pairs and any x-depends naming an
// API the catalog lacks, the coherent groups with their API counts, and the
// loaders' notes, and the tool files the loader skipped with their reasons.
func WriteSummary(w io.Writer, c *Catalog) error {
	tools, apis := c.Tools(), c.APIs()
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "Catalog: %d tools, %d APIs in %d categories\n", len(tools), len(apis), len(c.Categories))

	type count struct{ tools, apis int }
	byScenario := map[string]*count{}
	for _, t := range tools {
		s := t.Scenario
		if s == "" {
			s = "(none)"
		}
		if byScenario[s] == nil {
			byScenario[s] = &count{}
		}
		byScenario[s].tools++
		byScenario[s].apis += len(t.APIs)
	}
	fmt.Fprintln(tw, "\nBy scenario:")
	for _, s := range slices.Sorted(maps.Keys(byScenario)) {
		fmt.Fprintf(tw, "  %s\t%s\t%s\n", s, plural(byScenario[s].tools, "tool"), plural(byScenario[s].apis, "API"))
	}
	fmt.Fprintln(tw, "\nBy category:")
	for _, cat := range c.Categories {
		n := 0
		for _, t := range cat.Tools {
			n += len(t.APIs)
		}
		fmt.Fprintf(tw, "  %s\t%s\t%s\n", cat.Name, plural(len(cat.Tools), "tool"), plural(n, "API"))
	}
	fmt.Fprintln(tw, "\nBy tool:")
	for _, t := range tools {
		tags := []string{}
		for _, s := range []string{t.Scenario, t.Origin} {
			if s != "" {
				tags = append(tags, s)
			}
		}
		fmt.Fprintf(tw, "  %s/%s\t%s\t%s\t%s\n", t.Category, t.StandardizedName, plural(len(t.APIs), "API"), t.Host, strings.Join(tags, ", "))
	}

	edges := c.Dependencies()
	var unresolved []DependencyEdge
	for _, e := range edges {
		if !e.Resolved {
			unresolved = append(unresolved, e)
		}
	}
	fmt.Fprintf(tw, "\nDependencies: %d (source API, dependent API) pairs from %d x-depends entries\n", len(c.DependencyPairs()), len(edges))
	for _, e := range unresolved {
		fmt.Fprintf(tw, "  unresolved: %s(%s) ← %s, not in the catalog\n", e.Target, e.Param, e.Source)
	}

	groups := c.Groups()
	fmt.Fprintf(tw, "\nCoherent groups: %d\n", len(groups))
	for _, g := range slices.Sorted(maps.Keys(groups)) {
		fmt.Fprintf(tw, "  %s\t%s\n", g, plural(len(groups[g]), "API"))
	}

	var notes []string
	for _, t := range tools {
		for _, n := range t.Notes {
			notes = append(notes, t.StandardizedName+": "+n)
		}
	}
	if len(notes) > 0 {
		fmt.Fprintf(tw, "\nLoad notes: %d\n", len(notes))
		for _, n := range notes {
			fmt.Fprintf(tw, "  %s\n", n)
		}
	}
	if sk := c.Skipped(); len(sk) > 0 {
		fmt.Fprintf(tw, "\nSkipped tool files: %d\n", len(sk))
		for _, s := range sk {
			fmt.Fprintf(tw, "  %s: %s\n", s.File, s.Reason)
		}
	}
	return tw.Flush()
}

func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
