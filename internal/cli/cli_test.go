package cli

import (
	"bytes"
	"flag"
	"io"
	"testing"

	"github.com/stretchr/testify/require"
)

func newSet() *flag.FlagSet {
	fs := flag.NewFlagSet("toolserver", flag.ContinueOnError)
	fs.String("catalog", "", "a catalog")
	fs.Bool("list", false, "list")
	fs.String("mode", "fake", "mode")
	return fs
}

func usage(fs *flag.FlagSet) func(io.Writer) {
	return func(w io.Writer) {
		io.WriteString(w, "usage: toolserver [flags]\n\nflags:\n")
		fs.PrintDefaults()
	}
}

func TestParse(t *testing.T) {
	tests := []struct {
		name         string
		args         []string
		code         int
		ok           bool
		stdout, errs string
	}{
		{name: "flags", args: []string{"-list", "-mode", "replay"}, ok: true},
		{name: "help", args: []string{"-h"}, code: ExitHelp, stdout: "usage: toolserver [flags]\n\nflags:\n  -catalog string\n    \ta catalog\n  -list\n    \tlist\n  -mode string\n    \tmode (default \"fake\")\n"},
		{name: "long help", args: []string{"--help"}, code: ExitHelp, stdout: "usage: toolserver [flags]\n\nflags:\n  -catalog string\n    \ta catalog\n  -list\n    \tlist\n  -mode string\n    \tmode (default \"fake\")\n"},
		{name: "misspelt", args: []string{"-catlog", "x"}, code: ExitUsage,
			errs: "toolserver: flag provided but not defined: -catlog\ndid you mean -catalog?\nrun 'toolserver -h' for the usage and every flag\n"},
		{name: "double dash misspelt", args: []string{"--mdoe=fake"}, code: ExitUsage,
			errs: "toolserver: flag provided but not defined: -mdoe\ndid you mean -mode?\nrun 'toolserver -h' for the usage and every flag\n"},
		{name: "nothing near", args: []string{"-verbose"}, code: ExitUsage,
			errs: "toolserver: flag provided but not defined: -verbose\nrun 'toolserver -h' for the usage and every flag\n"},
		{name: "bad value", args: []string{"-list=maybe"}, code: ExitUsage,
			errs: "toolserver: invalid boolean value \"maybe\" for -list: parse error\nrun 'toolserver -h' for the usage and every flag\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fs := newSet()
			var out, errs bytes.Buffer
			code, ok := Parse(fs, tt.args, usage(fs), &out, &errs)
			require.Equal(t, tt.ok, ok)
			require.Equal(t, tt.code, code)
			require.Equal(t, tt.stdout, out.String())
			require.Equal(t, tt.errs, errs.String())
		})
	}
}

func TestNearest(t *testing.T) {
	cands := []string{"report", "compare", "catalog", "list"}
	for word, want := range map[string]string{
		"comapre": "compare", "compre": "compare", "reprot": "report", "Report": "report",
		"catalgo": "catalog", "lst": "list", "x": "", "totally": "", "": "",
	} {
		require.Equal(t, want, Nearest(word, cands), word)
	}
}
