package server

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"regexp"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/understudy/understudy/docs"
	"github.com/understudy/understudy/sandbox"
	"github.com/understudy/understudy/toolset"
)

var allKinds = []sandbox.Kind{
	sandbox.KindUnknownAPI, sandbox.KindInvalidArguments, sandbox.KindRateLimited, sandbox.KindNoRecording,
	sandbox.KindUpstreamFailed, sandbox.KindCancelled, sandbox.KindUnavailable, sandbox.KindInternal,
}

// TestProblemsMatchTheDocs: docs/problems.md, which the server serves at
// each problem's type, is a contract; every kind of engine error is listed
// there with the status the server answers with.
func TestProblemsMatchTheDocs(t *testing.T) {
	documented := map[string]int{}
	for _, m := range regexp.MustCompile(`(?m)^#### problem-([a-z-]+)\n(\d{3}):`).FindAllSubmatch(docs.Problems, -1) {
		documented[string(m[1])], _ = strconv.Atoi(string(m[2]))
	}
	require.Len(t, kindTitles, len(allKinds))
	for _, k := range allKinds {
		require.Contains(t, documented, string(k), "docs/problems.md lacks problem-%s", k)
		require.Equal(t, k.Status(), documented[string(k)], "problem-%s", k)
		require.NotEmpty(t, kindTitles[k], "no title for %s", k)
	}
}

// TestProblemOf: each engine error becomes its kind's problem with what a
// client needs to act on it, wrapped or not.
func TestProblemOf(t *testing.T) {
	for _, tc := range []struct {
		name  string
		err   error
		check func(t *testing.T, p *Problem)
	}{
		{"unknown api", &sandbox.NotFoundError{Tool: "t", API: "a", ToolKnown: true, Suggestions: []string{"t.b"}}, func(t *testing.T, p *Problem) {
			require.Equal(t, []string{"t.b"}, p.Suggestions)
		}},
		{"invalid arguments", &toolset.ValidationError{API: "t.a", Violations: []toolset.Violation{{Location: []string{"x"}, Code: "required"}}}, func(t *testing.T, p *Problem) {
			require.Len(t, p.Validation, 1)
		}},
		{"rate limited", &sandbox.RateLimitError{Tool: "t", RetryAfter: 1500 * time.Millisecond}, func(t *testing.T, p *Problem) {
			require.Equal(t, 2, p.RetryAfter)
			require.Equal(t, "2", p.headers.Get("Retry-After"))
		}},
		{"rate limited now", &sandbox.RateLimitError{Tool: "t"}, func(t *testing.T, p *Problem) {
			require.Equal(t, 1, p.RetryAfter, "never tell a client to retry after 0 s")
		}},
		{"no recording", fmt.Errorf("step 3: %w", &sandbox.ReplayMissError{Key: "k1"}), func(t *testing.T, p *Problem) {
			require.Equal(t, "k1", p.Key)
			require.Contains(t, p.Detail, "step 3: ")
		}},
		{"upstream failed", &sandbox.UpstreamError{Tool: "t", API: "a", Err: errors.New("refused")}, nil},
		{"cancelled", context.Canceled, nil},
		{"internal", errors.New("disk on fire"), nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := problemOf(tc.err)
			k := sandbox.KindOf(tc.err)
			require.Equal(t, k.Status(), p.Status)
			require.Equal(t, ProblemPath+string(k), p.Type)
			require.Equal(t, kindTitles[k], p.Title)
			require.Equal(t, tc.err.Error(), p.Detail)
			require.Equal(t, p.Detail, p.Message)
			if tc.check != nil {
				tc.check(t, p)
			}
		})
	}
	p := problemOf(&http.MaxBytesError{Limit: 10})
	require.Equal(t, http.StatusRequestEntityTooLarge, p.Status)
	own := newProblem(http.StatusTeapot, "teapot", "Teapot", "short and stout")
	require.Same(t, own, problemOf(fmt.Errorf("wrapped: %w", own)), "a problem passes through as is")
}
