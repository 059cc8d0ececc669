// Command tbgen writes a synthetic StableToolBench universe (tools, queries, manifest) for measuring by hand.
//
// Usage: go run ./internal/tbgen/cmd/tbgen -out DIR [-tools N] [-apis N] [-seed S] [-slice]
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"sort"
	"time"

	"github.com/understudy/understudy/internal/cli"
	"github.com/understudy/understudy/internal/tbgen"
)

// errUsage ends a run whose flags were wrong, said already on stderr.
var errUsage = errors.New("usage")

func main() {
	if err := run(os.Args[1:], os.Stdout, os.Stderr); err != nil {
		if errors.Is(err, errUsage) {
			os.Exit(cli.ExitUsage)
		}
		fmt.Fprintln(os.Stderr, "tbgen:", err)
		os.Exit(1)
	}
}

func run(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("tbgen", flag.ContinueOnError)
	fs.SetOutput(stderr)
	out := fs.String("out", "", "folder to write the universe into (required)")
	tools := fs.Int("tools", 0, "tool files (0: StableToolBench's 12,301)")
	apis := fs.Int("apis", 0, "APIs over all tool files (0: 44,692 scaled to -tools)")
	seed := fs.Uint64("seed", 0, "random seed; the same seed and sizes give the same bytes")
	slice := fs.Bool("slice", false, "write the slice committed under internal/tbgen/testdata/universe (ignores -tools, -apis, -seed)")
	usage := func(w io.Writer) {
		fmt.Fprintln(w, "usage: tbgen -out DIR [-tools N] [-apis N] [-seed S] [-slice]\n\nWrites a StableToolBench-shaped universe of tool files and queries.\n\nflags:")
		fs.PrintDefaults()
	}
	if code, ok := cli.Parse(fs, args, usage, stdout, stderr); !ok {
		if code == cli.ExitHelp {
			return nil
		}
		return errUsage
	}
	if *out == "" || fs.NArg() > 0 {
		fs.Usage()
		return fmt.Errorf("-out DIR is required, and nothing else")
	}
	opts := tbgen.Options{Seed: *seed, Tools: *tools, APIs: *apis}
	if *slice {
		opts = tbgen.SliceOptions()
	}
	start := time.Now()
	m, err := tbgen.Write(*out, opts)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "wrote %s in %.1fs (seed %d)\n", *out, time.Since(start).Seconds(), m.Seed)
	fmt.Fprintf(stdout, "  files        %d: %d tools, %d copies, %d not tools, in %d categories\n", m.Files, m.Tools, m.ToolFiles-m.Tools, m.Files-m.ToolFiles, m.Categories)
	fmt.Fprintf(stdout, "  APIs         %d (%d without a schema, %.1f%%)\n", m.APIs, m.APIsWithoutSchema, 100*float64(m.APIsWithoutSchema)/float64(max(m.APIs, 1)))
	fmt.Fprintf(stdout, "  dependencies %d edges\n", len(m.Edges))
	total := 0
	for _, n := range m.Queries {
		total += n
	}
	fmt.Fprintf(stdout, "  queries      %d:", total)
	for _, g := range tbgen.Groups {
		fmt.Fprintf(stdout, " %s %d", g, m.Queries[g])
	}
	fmt.Fprintf(stdout, "\n               %d unscorable (%d only for a non-relevant API), %d name a category twin\n", m.QueriesUnscorable, m.QueriesMissingOnlyOther, m.QueriesWithCategoryTwin)
	kinds := make([]string, 0, len(m.DefectCounts))
	for k := range m.DefectCounts {
		kinds = append(kinds, k)
	}
	sort.Strings(kinds)
	fmt.Fprintf(stdout, "  defects     ")
	for _, k := range kinds {
		fmt.Fprintf(stdout, " %s %d", k, m.DefectCounts[k])
	}
	fmt.Fprintln(stdout)
	return nil
}
