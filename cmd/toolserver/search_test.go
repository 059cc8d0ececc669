package main

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/understudy/understudy/internal/server"
)

func TestSearchFlag(t *testing.T) {
	for _, tc := range []struct {
		name   string
		args   []string
		code   int
		stdout string
		stderr string
	}{
		{"table", []string{"-search", "currency exchange rate"}, 0, "currency_exchange.exchange", ""},
		{"hierarchical", []string{"-search", "public holidays", "-retriever", "hierarchical", "-k", "2"}, 0, "public_holiday.public_holidays", ""},
		{"nothing", []string{"-search", "zzqx"}, 0, `no API matches "zzqx"`, ""},
		{"bad k", []string{"-search", "x", "-k", "0"}, 2, "", "-k 0"},
		{"bad retriever", []string{"-search", "x", "-retriever", "dense"}, 2, "", `unknown retriever "dense"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			require.Equal(t, tc.code, run(tc.args, &stdout, &stderr), stderr.String())
			require.Contains(t, stdout.String(), tc.stdout)
			require.Contains(t, stderr.String(), tc.stderr)
		})
	}
	var stdout bytes.Buffer
	require.Equal(t, 0, run([]string{"-search", "currency exchange rate", "-json", "-k", "2"}, &stdout, &bytes.Buffer{}))
	var res server.SearchResult
	require.NoError(t, json.Unmarshal(stdout.Bytes(), &res))
	require.Len(t, res.Hits, 2)
	require.Equal(t, "exchange_for_currency_exchange", res.Hits[0].Function)
}
