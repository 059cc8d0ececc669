package htmlreport

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// FuzzDecodeReport feeds report.json contents to the decoder and every
// report it accepts to both pages: a report.json edited by hand or written
// by another version must give a clear error or a page, never a panic.
func FuzzDecodeReport(f *testing.F) {
	// The fixtures cut down to a few of their instances and one failure:
	// the fuzzer stalls on inputs of tens of kilobytes.
	for _, dir := range []string{baselineDir, oracleDir} {
		b, err := os.ReadFile(filepath.Join(dir, "report.json"))
		require.NoError(f, err)
		rep, err := DecodeReport(b, dir)
		require.NoError(f, err)
		rep.Instances = rep.Instances[:3]
		rep.ByScenario = nil
		if len(rep.Failures) > 0 {
			rep.Failures = rep.Failures[:1]
			rep.Failures[0].Messages = rep.Failures[0].Messages[:1]
			rep.Failures[0].Reply = nil
		}
		for i := range rep.Tasks {
			rep.Tasks[i].Criterion = ""
		}
		small, err := json.Marshal(rep)
		require.NoError(f, err)
		f.Add(small)
	}
	f.Add([]byte(`{"agent":"a","tasks":[{"id":99,"metrics":{"":1},"extra":{"":2},"planned":-1,"n":3,"chain":{"first_broken":[1]},"coverage_bins":[1]}],"failures":[{"key":"k"},{}],"by_type":[{"name":"x","cells":[{"task":1}]}]}`))
	f.Add([]byte(`{"agent":"a","tasks":[{"id":1}],"instances":[{"key":"T1/a","task":1,"outcome":"error"}]}`))
	// Failures whose gold is set beside the agent: a call argument by
	// argument, a chain step by step.
	f.Add([]byte(`{"agent":"a","complete":true,"tasks":[{"id":4},{"id":7}],"failures":[` +
		`{"key":"T4/x","task":4,"outcome":"wrong_value","check":{"outcome":"wrong_value","param":"q"},"reply":{"tool_calls":[{"name":"a-b","arguments":{"q":"x","n":1}}]},` +
		`"gold":{"id":"x","gold_call":{"api":"a.b","arguments":{"q":{"values":["y"]},"d":{"values":[1],"optional":true}}}}},` +
		`{"key":"T7/y","task":7,"outcome":"partial","calls":[{"name":"a-b","api":"a.b","arguments":{"q":"x"}}],"breaks":[{"step":2,"kind":"not_called"}],` +
		`"gold":{"id":"y","chain":[{"api":"a.b","arguments":{"q":"x"}},{"api":"a.c","bindings":{"id":{"step":-1,"path":"x"}}}]}}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		rep, err := DecodeReport(data, "report.json")
		if err != nil {
			var re *ReportError
			require.ErrorAs(t, err, &re)
			return
		}
		var b bytes.Buffer
		require.NoError(t, WriteReport(&b, rep))
		c, err := Compare([]Run{{Dir: "a", Report: rep}, {Dir: "b", Report: rep}}, CompareOptions{Resamples: 20, AllowIncomplete: true})
		require.NoError(t, err)
		_, err = c.HTML("")
		require.NoError(t, err)
		require.NotEmpty(t, c.Markdown())
	})
}
