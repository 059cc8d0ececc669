package main

import (
	"encoding/json"
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/understudy/understudy/internal/server"
	"github.com/understudy/understudy/toolset"
)

// search prints the APIs that best match -search, best first: the same
// answer GET /v1/search gives, as a table (or its JSON with -json).
func search(cat *toolset.Catalog, f flags, stdout, stderr io.Writer) int {
	if f.searchK < 1 || f.searchK > 100 {
		fmt.Fprintf(stderr, "toolserver: -k %d: want 1 to 100\n", f.searchK)
		return 2
	}
	res, err := server.Search(cat, f.retriever, f.search, f.searchK)
	if err != nil {
		fmt.Fprintf(stderr, "toolserver: -retriever: %v\n", err)
		return 2
	}
	if f.asJSON {
		return writeJSONOut(stdout, stderr, res)
	}
	if len(res.Hits) == 0 {
		fmt.Fprintf(stdout, "no API matches %q\n", f.search)
		return 0
	}
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "#\tscore\tapi\tfunction\tdescription")
	for i, h := range res.Hits {
		fmt.Fprintf(tw, "%d\t%.2f\t%s\t%s\t%s\n", i+1, h.Score, h.ID, h.Function, clipText(h.Description, 70))
	}
	if err := tw.Flush(); err != nil {
		fmt.Fprintf(stderr, "toolserver: %v\n", err)
		return 1
	}
	return 0
}

func clipText(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

func writeJSONOut(stdout, stderr io.Writer, v any) int {
	enc := json.NewEncoder(stdout)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		fmt.Fprintf(stderr, "toolserver: %v\n", err)
		return 1
	}
	return 0
}
