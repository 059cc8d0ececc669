package openapi_test

import (
	"testing"

	"github.com/understudy/understudy/toolset"
	"github.com/understudy/understudy/toolset/internal/toolsettest"
	"github.com/understudy/understudy/toolset/openapi"
)

// FuzzLoad: any OpenAPI document loads or fails with a *LoadError, and a
// loaded tool survives every downstream use without panicking.
func FuzzLoad(f *testing.F) {
	toolsettest.AddSeedFiles(f, "../testdata/openapi/*")
	f.Add([]byte(`{"openapi": "3.0.3", "info": {"title": "x", "version": "1"}, "paths": {"/a/{b}": {"get": {"parameters": [{"name": "b", "in": "path", "required": true, "schema": {"type": "integer", "minimum": 1}}], "responses": {"200": {"description": "ok"}}}}}}`))
	f.Add([]byte("openapi: 3.0.0\ninfo: {title: y, version: '1'}\npaths: {}\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		tool, err := openapi.Load(data, "fuzz.yaml")
		if err != nil {
			if _, ok := err.(*toolset.LoadError); !ok {
				t.Fatalf("error is %T, not *LoadError: %v", err, err)
			}
			return
		}
		toolsettest.Exercise(t, tool)
	})
}
