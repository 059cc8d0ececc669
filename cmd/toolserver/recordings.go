package main

import (
	"fmt"
	"io"
	"os"

	"github.com/understudy/understudy/cache"
	"github.com/understudy/understudy/internal/recgen"
	"github.com/understudy/understudy/sandbox"
	"github.com/understudy/understudy/toolset"
)

// recordExamples writes the built-in APIs' documented examples, answered
// by the stand-ins, to dir: how fixtures/recordings is made.
func recordExamples(dir string, stdout, stderr io.Writer) int {
	n, err := recgen.Generate(dir)
	if err != nil {
		fmt.Fprintf(stderr, "toolserver: %v\n", err)
		return 1
	}
	fmt.Fprintf(stdout, "toolserver: recorded %d examples from the stand-ins in %s\n", n, dir)
	return 0
}

// verifyRecordings checks a recordings folder before it is used (a CI
// step): every problem on its own line and exit 1, or a one-line summary.
// Calls are checked against the catalog being served, and the key in the
// -key-env variable, when set, must appear nowhere.
func verifyRecordings(cat *toolset.Catalog, dir, keyEnv string, stdout, stderr io.Writer) int {
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		fmt.Fprintf(stderr, "toolserver: -verify-recordings: %s is not a directory\n", dir)
		return 2
	}
	rep, err := cache.Verify(dir, cache.VerifyOptions{
		Canonical: func(tool, api string, args map[string]any) (map[string]any, error) {
			a := cat.API(tool, api)
			if a == nil {
				return nil, fmt.Errorf("no API %s.%s", tool, api)
			}
			return a.Validate(args)
		},
		Secrets: sandbox.SecretForms(os.Getenv(keyEnv)),
	})
	if err != nil {
		fmt.Fprintf(stderr, "toolserver: %v\n", err)
		return 1
	}
	if len(rep.Problems) > 0 {
		for _, p := range rep.Problems {
			fmt.Fprintf(stderr, "%s: %s\n", dir, p)
		}
		noun := "problems"
		if len(rep.Problems) == 1 {
			noun = "problem"
		}
		fmt.Fprintf(stderr, "toolserver: %s: %d %s in %d entries\n", dir, len(rep.Problems), noun, rep.Entries)
		return 1
	}
	fmt.Fprintf(stdout, "toolserver: %s: %d entries verified, no problems\n", dir, rep.Entries)
	return 0
}
