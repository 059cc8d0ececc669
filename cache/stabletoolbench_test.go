package cache

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/understudy/understudy/internal/golden"
)

const stbDir = "testdata/stabletoolbench/tool_response_cache"

// stbResolve knows the tools of the fixture except unknown_tool.
func stbResolve(category, toolDir, apiFile string) (string, string, bool) {
	tool := strings.TrimSuffix(toolDir, "_for_"+category)
	if tool == "unknown_tool" {
		return "", "", false
	}
	return tool, apiFile, true
}

func checkGolden(t *testing.T, name string, got []byte) {
	t.Helper()
	golden.Check(t, filepath.Join("testdata", name), got)
}

func TestImportStableToolBench(t *testing.T) {
	s, _ := openTest(t, t.TempDir(), Options{})
	rep, err := ImportStableToolBench(stbDir, stbResolve, s)
	require.NoError(t, err)

	require.Equal(t, 5, rep.Files)
	require.Equal(t, 1, rep.BadFiles)
	require.Equal(t, 1, rep.Unresolved)
	require.Equal(t, 6, rep.Imported)
	require.Equal(t, 1, rep.BadKey)
	require.Equal(t, 1, rep.Errored)
	require.Equal(t, 1, rep.ErrorLooking)
	require.Equal(t, 1, rep.BadValue)
	require.Equal(t, 1, rep.Duplicate)
	require.Equal(t, 4, rep.PerTool["weatherapi_com"].Imported)
	require.Equal(t, 2, rep.PerTool["public_holiday"].Imported)
	out, err := json.MarshalIndent(rep, "", "  ")
	require.NoError(t, err)
	checkGolden(t, "stabletoolbench_import.golden.json", append(out, '\n'))

	// Imported entries answer the calls the engine makes.
	e, ok, err := s.Get(KeyOf("weatherapi_com", "forecast_weather_api", map[string]any{"q": "Zürich", "days": 1, "lang": "de", "alerts": true, "aqi": nil}))
	require.NoError(t, err)
	require.True(t, ok)
	require.Equal(t, `{"location":{"name":"Zürich"},"forecast":{"forecastday":[]}}`, string(e.Response))
	require.Equal(t, SourceStableToolBench, e.Source)
	_, ok, _ = s.Get(KeyOf("public_holiday", "public_holidays", map[string]any{"year": 2025.0, "countryCode": "FR"}))
	require.True(t, ok)
	_, ok, _ = s.Get(KeyOf("public_holiday", "public_holidays", map[string]any{"year": "2025", "countryCode": "US", "note": "it's é"}))
	require.True(t, ok)
	_, ok, _ = s.Get(KeyOf("weatherapi_com", "forecast_weather_api", map[string]any{"q": "Lyon", "days": 2}))
	require.False(t, ok, "errored entries are not imported")
	_, ok, _ = s.Get(KeyOf("weatherapi_com", "astronomy_api", nil))
	require.True(t, ok)

	// Nil resolve uses the folder names; a missing directory is an error.
	s2, _ := openTest(t, t.TempDir(), Options{})
	rep2, err := ImportStableToolBench(stbDir, nil, s2)
	require.NoError(t, err)
	require.Equal(t, 7, rep2.Imported)
	_, err = ImportStableToolBench(filepath.Join(stbDir, "missing"), nil, s2)
	require.Error(t, err)
	_, err = ImportStableToolBench(stbDir, nil, nil)
	require.Error(t, err)

	// A read-only destination stops the import with the write error.
	ro, err := OpenFS(os.DirFS(t.TempDir()), Options{})
	require.NoError(t, err)
	_, err = ImportStableToolBench(stbDir, nil, ro)
	require.ErrorIs(t, err, ErrReadOnly)
}

func TestImportNormalize(t *testing.T) {
	s, _ := openTest(t, t.TempDir(), Options{})
	// The engine would coerce "2025" to a number and apply defaults.
	rep, err := ImportStableToolBenchWith(stbDir, ImportOptions{
		Resolve: stbResolve,
		Normalize: func(tool, api string, args map[string]any) (map[string]any, error) {
			if y, ok := args["year"].(string); ok && y == "2025" {
				args["year"] = 2025
			}
			return args, nil
		},
	}, s)
	require.NoError(t, err)
	require.Equal(t, 6, rep.Imported)
	_, ok, _ := s.Get(KeyOf("public_holiday", "public_holidays", map[string]any{"year": 2025, "countryCode": "US", "note": "it's é"}))
	require.True(t, ok)
}

func TestExportStableToolBench(t *testing.T) {
	s, _ := openTest(t, t.TempDir(), Options{})
	_, err := ImportStableToolBench(stbDir, stbResolve, s)
	require.NoError(t, err)
	require.NoError(t, s.Put(KeyOf("evil", "x", nil), Entry{Response: json.RawMessage(`1`)}))
	require.NoError(t, s.Put(KeyOf("weatherapi_com", "astronomy_api", map[string]any{"q": "Err"}), Entry{Status: 500, Response: json.RawMessage(`{}`)}))

	out := t.TempDir()
	locate := func(tool, api string) (string, string, string, bool) {
		switch tool {
		case "weatherapi_com":
			return "Weather", tool + "_for_Weather", api, true
		case "public_holiday":
			return "Events", tool + "_for_Events", api, true
		case "evil":
			return "..", "..", "passwd", true
		}
		return "", "", "", false
	}
	rep, err := ExportStableToolBench(s, out, locate)
	require.NoError(t, err)
	require.Equal(t, 6, rep.Entries)
	require.Equal(t, 3, rep.Files)
	require.Equal(t, 1, rep.Unplaced)
	require.Equal(t, 1, rep.Skipped)

	got, err := os.ReadFile(filepath.Join(out, "Events", "public_holiday_for_Events", "public_holidays.json"))
	require.NoError(t, err)
	checkGolden(t, "stabletoolbench_export.golden.json", got)

	// Importing the export gives back the same entries.
	back, _ := openTest(t, t.TempDir(), Options{})
	rep2, err := ImportStableToolBenchWith(out, ImportOptions{Resolve: stbResolve, KeepErrorLooking: true}, back)
	require.NoError(t, err)
	require.Equal(t, 6, rep2.Imported)
	require.NoError(t, s.Walk(func(k Key, e Entry) error {
		if e.Tool == "evil" || e.Status != 200 {
			return nil
		}
		got, ok, err := back.Get(k)
		require.NoError(t, err)
		require.True(t, ok, "%s", k)
		require.Equal(t, string(e.Response), string(got.Response))
		return nil
	}))
}
