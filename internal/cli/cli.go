// Package cli parses every command's flags alike: -h prints the usage to standard output and exits 0, and a misspelt flag or subcommand is answered with the nearest real one.
package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/understudy/understudy/internal/fuzzy"
)

// Exit codes of a parse that ends the command.
const (
	ExitHelp  = 0 // -h or -help: the usage was asked for
	ExitUsage = 2 // a flag the command does not have, or a bad value
)

// Parse parses args into fs. When ok is false the command stops with
// code: after -h the usage (written by usage, which may call
// fs.PrintDefaults) went to stdout; after a bad flag, the error, the
// nearest flag the command has and a pointer to -h went to stderr.
// The usage is not repeated after an error: a screen of flags hides the
// one line that says what was wrong.
func Parse(fs *flag.FlagSet, args []string, usage func(w io.Writer), stdout, stderr io.Writer) (code int, ok bool) {
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	err := fs.Parse(args)
	if err == nil {
		fs.SetOutput(stderr)
		return 0, true
	}
	if errors.Is(err, flag.ErrHelp) {
		fs.SetOutput(stdout)
		usage(stdout)
		return ExitHelp, false
	}
	fs.SetOutput(stderr)
	fmt.Fprintf(stderr, "%s: %v\n", fs.Name(), err)
	if name, unknown := strings.CutPrefix(err.Error(), "flag provided but not defined: -"); unknown {
		var names []string
		fs.VisitAll(func(f *flag.Flag) { names = append(names, f.Name) })
		if near := Nearest(strings.TrimPrefix(name, "-"), names); near != "" {
			fmt.Fprintf(stderr, "did you mean -%s?\n", near)
		}
	}
	fmt.Fprintf(stderr, "run '%s -h' for the usage and every flag\n", fs.Name())
	return ExitUsage, false
}

// Nearest is the candidate closest to word by edit distance, or "" when
// none is close enough to be what was meant (at most a third of the
// word's letters wrong, two in a short word, and at least two right).
func Nearest(word string, candidates []string) string {
	best, bestDist := "", -1
	for _, c := range candidates {
		d := fuzzy.Levenshtein(strings.ToLower(word), strings.ToLower(c))
		if bestDist < 0 || d < bestDist || d == bestDist && c < best {
			best, bestDist = c, d
		}
	}
	limit := max(2, len([]rune(word))/3)
	if bestDist < 0 || bestDist > limit || len([]rune(word))-bestDist < 2 {
		return ""
	}
	return best
}
