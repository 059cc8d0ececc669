package server

import (
	"encoding/json"
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/understudy/understudy/internal/canon"
	"github.com/understudy/understudy/sandbox"
)

// TestMarshalResult: the answer of POST /v1/call written around a
// compact response is byte for byte what encoding/json writes, and every
// other answer goes through encoding/json.
func TestMarshalResult(t *testing.T) {
	for _, res := range []*sandbox.Result{
		{Tool: "iso_codes", API: "country_by_code", Response: json.RawMessage(`{"code":"ZZ","error":"Country not found"}`), Status: 404, Source: sandbox.SourceMock, Session: "demo", Seq: 1},
		{Tool: "weatherapi_com", API: "realtime_weather_api", Response: json.RawMessage(`{"a":"<&>\u2028"}`), Status: 200, Source: sandbox.SourceCache, Key: "ab12", Session: "\"quoted\" <s>\x01\xff", Seq: 99},
		{Tool: "t", API: "a", Response: json.RawMessage(`[1,2]`), Status: 400, Source: sandbox.SourceSandbox, Violations: []sandbox.Violation{{Param: "fromId", Kind: "fabricated", Value: "x<y", Message: "m", Sources: []string{"t.b"}, Enforced: true}}},
		{Tool: "t", API: "a", Response: json.RawMessage("{ \"spaced\" : 1 }"), Status: 200, Source: sandbox.SourceRemote, UpstreamError: "e"},
		{Tool: "t", API: "a", Response: json.RawMessage(`{}`), Status: 429, Source: sandbox.SourceMock, Header: http.Header{"Retry-After": {"1"}}},
		{Tool: "t", API: "a", Response: json.RawMessage(`{}`), Source: sandbox.SourceMock},
	} {
		want, err := marshal(res)
		require.NoError(t, err)
		got, err := marshalResult(res)
		require.NoError(t, err)
		require.Equal(t, string(want), string(got))
	}
}

// FuzzMarshalResult: for any names and any response a stand-in or the
// store could hold (canonical JSON), the fast path writes encoding/json's
// bytes.
func FuzzMarshalResult(f *testing.F) {
	f.Add("iso_codes", "country_by_code", `{"code":"ZZ"}`, "demo", "k", 200, 1)
	f.Add("t<", "a&", `"\u003c\u2029"`, "\xff\x00", "", -1, 0)
	f.Fuzz(func(t *testing.T, tool, api, doc, session, key string, status, seq int) {
		v, err := canon.Decode([]byte(doc))
		if err != nil {
			return
		}
		body, err := canon.JSON(v)
		if err != nil {
			return
		}
		for _, src := range []string{sandbox.SourceMock, sandbox.SourceCache, sandbox.SourceSandbox} {
			res := &sandbox.Result{Tool: tool, API: api, Response: body, Status: status, Source: src, Key: key, Session: session, Seq: seq}
			want, err := marshal(res)
			require.NoError(t, err)
			got, err := marshalResult(res)
			require.NoError(t, err)
			require.Equal(t, string(want), string(got))
		}
	})
}
