package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/understudy/understudy/agent/agenttest"
)

const mini = "../../evaltasks/testdata/mini"

func TestOracleTable(t *testing.T) {
	dir := t.TempDir()
	var out, errb bytes.Buffer
	code := run(context.Background(), []string{"-agent", "oracle", "-data", mini, "-out", dir}, &out, &errb, false)
	require.Equal(t, exitOK, code, errb.String())
	require.Contains(t, out.String(), "Task 7  Progress      1.00")
	require.Contains(t, errb.String(), "instances (100%)", "plain progress lines off a terminal")
	for _, f := range []string{"results.jsonl", "report.json", "report.md", "run.json"} {
		_, err := os.Stat(filepath.Join(dir, f))
		require.NoError(t, err, f)
	}
	// A second run refuses to clobber; -resume finds nothing left to do.
	code = run(context.Background(), []string{"-agent", "oracle", "-data", mini, "-out", dir, "-quiet"}, &out, &errb, false)
	require.Equal(t, exitFailed, code)
	out.Reset()
	code = run(context.Background(), []string{"-agent", "oracle", "-data", mini, "-out", dir, "-resume", "-format", "json", "-quiet"}, &out, &errb, false)
	require.Equal(t, exitOK, code, errb.String())
	var rep struct {
		Agent string `json:"agent"`
		Tasks []struct {
			ID      int                `json:"id"`
			Name    string             `json:"name"`
			Metrics map[string]float64 `json:"metrics"`
			N       int                `json:"n"`
		} `json:"tasks"`
	}
	require.NoError(t, json.Unmarshal(out.Bytes(), &rep))
	require.Equal(t, "oracle", rep.Agent)
	require.Len(t, rep.Tasks, 8)
	require.Equal(t, map[string]float64{"precision": 1, "recall": 1, "f1": 1}, rep.Tasks[0].Metrics)
	require.Equal(t, map[string]float64{"progress": 1}, rep.Tasks[6].Metrics)
}

func TestOpenAIAgent(t *testing.T) {
	// Task 2 over the three Type-II records: right, wrong, and unparseable.
	srv := agenttest.NewServer(t,
		agenttest.Tool("calculator-calculate", `{"expression":"1234*5678"}`),
		agenttest.Tool("currency_exchange-listquotes", `{}`),
		agenttest.Tool("geocoding-forward_geocode", `{"address":`),
	)
	dir := t.TempDir()
	var out, errb bytes.Buffer
	code := run(context.Background(), []string{"-agent", "openai", "-base-url", srv.URL(), "-model", "m", "-tasks", "2", "-data", mini, "-out", dir, "-quiet"}, &out, &errb, false)
	require.Equal(t, exitOK, code, errb.String())
	require.Contains(t, out.String(), "Task 2  Accuracy  0.33")
	require.Len(t, srv.Requests(), 3)
	results, err := os.ReadFile(filepath.Join(dir, "results.jsonl"))
	require.NoError(t, err)
	require.Equal(t, 1, strings.Count(string(results), `"outcome":"parse_error"`))
}

func TestUsageErrors(t *testing.T) {
	for _, args := range [][]string{
		{"-tasks", "9"},
		{"-agent", "nobody"},
		{"-format", "xml"},
		{"-agent", "openai"},
		{"stray"},
	} {
		var out, errb bytes.Buffer
		require.Equal(t, exitUsage, run(context.Background(), args, &out, &errb, false), "%v", args)
		require.NotEmpty(t, errb.String())
	}
}

func TestInterruptedRunSaves(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	dir := t.TempDir()
	var out, errb bytes.Buffer
	code := run(ctx, []string{"-agent", "oracle", "-data", mini, "-out", dir, "-quiet"}, &out, &errb, false)
	require.Equal(t, exitInterrupted, code, errb.String())
	require.Contains(t, errb.String(), "-resume")
	_, err := os.Stat(filepath.Join(dir, "report.json"))
	require.NoError(t, err)
}
