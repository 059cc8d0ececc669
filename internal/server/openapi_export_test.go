package server_test

import (
	"context"
	"encoding/json"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/stretchr/testify/require"

	"github.com/understudy/understudy/internal/assemble"
)

// openAPIExport fetches GET /v1/tools?format=openapi.
func openAPIExport(t *testing.T) (string, []byte) {
	t.Helper()
	ts, _ := newServer(t, assemble.Config{})
	code, hdr, body := do(t, "GET", ts.URL+"/v1/tools?format=openapi", "", "", nil)
	require.Equal(t, http.StatusOK, code, string(body))
	require.Equal(t, "application/json", hdr.Get("Content-Type"))
	return ts.URL, body
}

// TestOpenAPIExport: the catalog's OpenAPI document is served, valid for
// kin-openapi, with the servers entry the request was made to, a declared
// security scheme every operation uses, and no nullable without a type.
func TestOpenAPIExport(t *testing.T) {
	base, body := openAPIExport(t)
	loader := openapi3.NewLoader()
	doc, err := loader.LoadFromData(body)
	require.NoError(t, err)
	require.NoError(t, doc.Validate(context.Background()))
	require.Len(t, doc.Servers, 1)
	require.Equal(t, base, doc.Servers[0].URL)
	require.NotNil(t, doc.Components)
	require.Contains(t, doc.Components.SecuritySchemes, "RapidAPIKey")
	require.Equal(t, "X-RapidAPI-Key", doc.Components.SecuritySchemes["RapidAPIKey"].Value.Name)
	require.Len(t, doc.Security, 1)
	require.Equal(t, 77, len(doc.Paths.Map()), "every built-in API")

	// Every "nullable" has a "type" beside it (Redocly's nullable-type-sibling).
	var walk func(path string, v any)
	nullables := 0
	walk = func(path string, v any) {
		switch x := v.(type) {
		case map[string]any:
			if x["nullable"] == true {
				nullables++
				require.Contains(t, x, "type", "nullable without a type at %s", path)
			}
			for k, sub := range x {
				walk(path+"/"+k, sub)
			}
		case []any:
			for _, sub := range x {
				walk(path+"[]", sub)
			}
		}
	}
	var raw any
	require.NoError(t, json.Unmarshal(body, &raw))
	walk("#", raw)
	require.NotZero(t, nullables, "the tool files' nullables are kept, typed")
}

// TestOpenAPIExportLintsClean runs Redocly's linter with its recommended
// rules on the served document: no errors (warnings, such as a missing
// license, are allowed). It needs the redocly command (npm install
// @redocly/cli; .ci/run installs it) and skips without it, unless
// UNDERSTUDY_REQUIRE_REDOCLY is set, as .ci/run sets it.
func TestOpenAPIExportLintsClean(t *testing.T) {
	redocly, err := exec.LookPath("redocly")
	if err != nil {
		if os.Getenv("UNDERSTUDY_REQUIRE_REDOCLY") != "" {
			t.Fatal("redocly is not on PATH and UNDERSTUDY_REQUIRE_REDOCLY is set")
		}
		t.Skip("redocly is not on PATH (npm install -g @redocly/cli); the lint of the OpenAPI export is skipped")
	}
	_, body := openAPIExport(t)
	file := filepath.Join(t.TempDir(), "openapi.json")
	require.NoError(t, os.WriteFile(file, body, 0o644))
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, redocly, "lint", "--extends", "recommended", "--format", "json", file)
	cmd.Env = append(os.Environ(), "REDOCLY_TELEMETRY=off", "REDOCLY_SUPPRESS_UPDATE_NOTICE=true")
	out, err := cmd.Output()
	var report struct {
		Totals   struct{ Errors, Warnings int } `json:"totals"`
		Problems []struct {
			RuleID, Severity, Message string
		} `json:"problems"`
	}
	require.NoError(t, json.Unmarshal(out, &report), "redocly's report: %s", out)
	var errs []string
	for _, p := range report.Problems {
		if p.Severity == "error" {
			errs = append(errs, p.RuleID+": "+p.Message)
		}
	}
	require.Empty(t, errs, "redocly lint --extends recommended: %d errors\n%s", report.Totals.Errors, strings.Join(errs, "\n"))
	require.NoError(t, err, "redocly exits 0 without errors")
}
