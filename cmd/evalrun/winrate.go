package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/understudy/understudy/agent/openai"
	"github.com/understudy/understudy/evaltasks"
	"github.com/understudy/understudy/evaltasks/winrate"
	"github.com/understudy/understudy/internal/atomicfile"
	"github.com/understudy/understudy/internal/cli"
)

// wantsWinRate tells whether compare's arguments ask for the win rate.
func wantsWinRate(args []string) bool {
	for _, a := range args {
		if a == "--" {
			return false
		}
		name, _, _ := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if strings.HasPrefix(a, "-") && name == "win-rate" {
			return true
		}
	}
	return false
}

// winRateCommand is evalrun compare -win-rate RUN_A RUN_B: ToolEval's win
// rate of RUN_A against RUN_B, with a judge model.
func winRateCommand(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("evalrun compare -win-rate", flag.ContinueOnError)
	fs.Bool("win-rate", true, "compare two -suite toolbench runs by ToolEval's win rate")
	out := fs.String("out", "", "where to write the page (default: compare.html beside RUN_A)")
	judgeURL := fs.String("judge-url", "", "OpenAI-compatible API root of the judge model (required)")
	judgeModel := fs.String("judge-model", "", "judge model name")
	judgeKeyEnv := fs.String("judge-api-key-env", "", "NAME of the environment variable holding the judge's API key")
	votes := fs.Int("judge-votes", winrate.MinVotes, "judge votes per comparison (at least 4, majority)")
	timeout := fs.Duration("timeout", openai.DefaultTimeout, "timeout of one judge request")
	retries := fs.Int("retries", openai.DefaultMaxRetries, "retries of a failed judge request")
	allowErrors := fs.Bool("allow-errors", false, "exit 0 even when comparisons got no majority from the judge")
	usage := func(w io.Writer) {
		fmt.Fprintln(w, "usage: evalrun compare -win-rate -judge-url URL [-judge-model M] [-out FILE] RUN_A RUN_B\n\n"+
			"ToolEval's win rate of RUN_A against RUN_B (two -suite toolbench runs): for every query both answered, a\n"+
			"passed path beats a failed one without a vote; otherwise the judge compares the two paths under ToolEval's\n"+
			"criteria, by majority of its votes. Prints win/tie/lose and the win rate per query file, ties split and raw.")
		fs.PrintDefaults()
	}
	if code, ok := cli.Parse(fs, args, usage, stdout, stderr); !ok {
		return code
	}
	if fs.NArg() != 2 {
		fmt.Fprintln(stderr, "evalrun compare -win-rate: name two run directories, RUN_A and the reference RUN_B")
		return exitUsage
	}
	if *judgeURL == "" {
		fmt.Fprintf(stderr, "evalrun: %v\n", winrate.ErrNoJudge)
		return exitUsage
	}
	j, err := evaltasks.NewOpenAIJudge(evaltasks.AgentOptions{BaseURL: *judgeURL, Model: *judgeModel, APIKeyEnv: *judgeKeyEnv, Timeout: *timeout, MaxRetries: *retries}, max(*votes, winrate.MinVotes))
	if err != nil {
		fmt.Fprintf(stderr, "evalrun: %v\n", err)
		return exitUsage
	}
	// ToolEval's votes need not be odd: a split vote is a tie.
	j.Votes, j.Name = max(*votes, winrate.MinVotes), "judge:"+*judgeModel
	rep, err := winrate.Run(ctx, winrate.Config{RunA: fs.Arg(0), RunB: fs.Arg(1), Judge: j})
	if explainJudgeUnreachable(stderr, err, *judgeURL, *timeout) {
		return exitFailed
	}
	if err != nil {
		fmt.Fprintf(stderr, "evalrun: %v\n", err)
		return exitFailed
	}
	if err := rep.WriteTable(stdout); err != nil {
		return exitFailed
	}
	path := *out
	if path == "" {
		path = filepath.Join(fs.Arg(0), "..", "compare.html")
	}
	page, err := rep.HTML()
	if err == nil {
		err = atomicfile.WriteFile(path, page, evaltasks.RunFileMode(fs.Arg(0)))
	}
	if err == nil {
		var js []byte
		if js, err = rep.JSON(); err == nil {
			err = atomicfile.WriteFile(strings.TrimSuffix(path, filepath.Ext(path))+".json", js, evaltasks.RunFileMode(fs.Arg(0)))
		}
	}
	if err != nil {
		fmt.Fprintf(stderr, "evalrun: %v\n", err)
		return exitFailed
	}
	fmt.Fprintf(stderr, "evalrun: win rate in %s\n", path)
	if rep.Overall.Errors > 0 && !*allowErrors {
		fmt.Fprintf(stderr, "evalrun: %d comparisons got no majority from the judge; -allow-errors accepts them\n", rep.Overall.Errors)
		return exitFailed
	}
	return exitOK
}
