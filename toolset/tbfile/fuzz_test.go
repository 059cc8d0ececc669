package tbfile_test

import (
	"testing"

	"github.com/understudy/understudy/toolset"
	"github.com/understudy/understudy/toolset/internal/toolsettest"
	"github.com/understudy/understudy/toolset/tbfile"
)

// FuzzLoadFile: any input loads or fails with a *LoadError, and a
// loaded tool survives every downstream use without panicking.
func FuzzLoadFile(f *testing.F) {
	toolsettest.AddSeedFiles(f, "../testdata/toolbench/*/*.json")
	f.Add([]byte(`{"tool_name": "t", "api_list": [{"name": "a", "required_parameters": [{"name": "q", "type": "NUMBER", "default": "5", "x-enum": [1, "2"]}]}]}`))
	f.Add([]byte(`{"name": "t", "api_list": null}`))
	f.Add([]byte(`{"tool_name": "t", "api_list": [{"name": "a", "url": "https://h/{x}", "required_parameters": [{"name": "x", "x-pattern": "^a+$", "x-minimum": 1}]}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		tool, err := tbfile.LoadFile(data, "Cat", "fuzz.json")
		if err != nil {
			if _, ok := err.(*toolset.LoadError); !ok {
				t.Fatalf("error is %T, not *LoadError: %v", err, err)
			}
			return
		}
		toolsettest.Exercise(t, tool)
	})
}
