package toolset_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/understudy/understudy/toolset"
	"github.com/understudy/understudy/toolset/search"
)

func addSeedFiles(f *testing.F, pattern string) {
	paths, err := filepath.Glob(pattern)
	if err != nil {
		f.Fatal(err)
	}
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
}

// FuzzLoadToolBenchFile: any input loads or fails with a *LoadError, and a
// loaded tool survives every downstream use without panicking.
func FuzzLoadToolBenchFile(f *testing.F) {
	addSeedFiles(f, "testdata/toolbench/*/*.json")
	f.Add([]byte(`{"tool_name": "t", "api_list": [{"name": "a", "required_parameters": [{"name": "q", "type": "NUMBER", "default": "5", "x-enum": [1, "2"]}]}]}`))
	f.Add([]byte(`{"name": "t", "api_list": null}`))
	f.Add([]byte(`{"tool_name": "t", "api_list": [{"name": "a", "url": "https://h/{x}", "required_parameters": [{"name": "x", "x-pattern": "^a+$", "x-minimum": 1}]}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		tool, err := toolset.LoadToolBenchFile(data, "Cat", "fuzz.json")
		if err != nil {
			if _, ok := err.(*toolset.LoadError); !ok {
				t.Fatalf("error is %T, not *LoadError: %v", err, err)
			}
			return
		}
		exercise(t, tool)
	})
}

// FuzzLoadOpenAPI: as FuzzLoadToolBenchFile, for OpenAPI documents.
func FuzzLoadOpenAPI(f *testing.F) {
	addSeedFiles(f, "testdata/openapi/*")
	f.Add([]byte(`{"openapi": "3.0.3", "info": {"title": "x", "version": "1"}, "paths": {"/a/{b}": {"get": {"parameters": [{"name": "b", "in": "path", "required": true, "schema": {"type": "integer", "minimum": 1}}], "responses": {"200": {"description": "ok"}}}}}}`))
	f.Add([]byte("openapi: 3.0.0\ninfo: {title: y, version: '1'}\npaths: {}\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		tool, err := toolset.LoadOpenAPI(data, "fuzz.yaml")
		if err != nil {
			if _, ok := err.(*toolset.LoadError); !ok {
				t.Fatalf("error is %T, not *LoadError: %v", err, err)
			}
			return
		}
		exercise(t, tool)
	})
}

// exercise runs a loaded tool through the catalog, exporters, validation and search.
func exercise(t *testing.T, tool *toolset.Tool) {
	c, err := toolset.NewCatalog([]*toolset.Tool{tool})
	if err != nil {
		t.Fatalf("a loaded tool must make a catalog: %v", err)
	}
	for _, a := range c.APIs() {
		_ = a.InputSchema()
		args := map[string]any{}
		for _, p := range a.Params {
			args[p.Name] = "1"
		}
		_, _ = a.Validate(args)
		_, _ = a.Validate(nil)
	}
	_ = toolset.OpenAITools(c, toolset.ExportOptions{})
	_ = toolset.OpenAITools(c, toolset.ExportOptions{Style: toolset.NameToolBench})
	_ = toolset.CatalogDocument(c)
	_ = toolset.OpenAPIDocument(c)
	_ = search.Of(c).Search("a b", 3)
	_ = search.Suggest(c, tool.Name, "x", 3)
}
