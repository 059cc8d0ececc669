package cache

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// storeToVerify writes two entries through the store, as record mode does,
// and returns the directory and the first entry's path.
func storeToVerify(t *testing.T) (dir string, weather string) {
	t.Helper()
	dir = t.TempDir()
	s, _ := openTest(t, dir, Options{})
	k := weatherKey()
	require.NoError(t, s.Put(k, Entry{Tool: k.Tool(), API: k.API(), Arguments: []byte(k.Args()), Response: []byte(`{"temp_c":18.5}`), Source: "mock"}))
	k2 := KeyOf("iso_codes", "country_by_code", map[string]any{"code": "ZZ"})
	require.NoError(t, s.Put(k2, Entry{Tool: k2.Tool(), API: k2.API(), Arguments: []byte(k2.Args()), Status: 404, Response: []byte(`{"error":"Country not found"}`), Source: "mock"}))
	require.NoError(t, s.Close())
	return dir, filepath.Join(dir, filepath.FromSlash(entryPath(k.Hash())))
}

// edit rewrites one field of an entry file, leaving its checksum.
func edit(t *testing.T, path string, change func(m map[string]any)) {
	t.Helper()
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	var m map[string]any
	require.NoError(t, json.Unmarshal(b, &m))
	change(m)
	b, err = json.MarshalIndent(m, "", "  ")
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(path, b, 0o644))
}

func TestVerify(t *testing.T) {
	canonical := func(tool, api string, args map[string]any) (map[string]any, error) {
		if tool == "weatherapi_com" {
			out := map[string]any{"days": 3.0}
			for k, v := range args {
				out[k] = v
			}
			return out, nil
		}
		if tool == "iso_codes" {
			return args, nil
		}
		return nil, errors.New("no such API")
	}
	for _, tc := range []struct {
		name    string
		opts    VerifyOptions
		tamper  func(t *testing.T, dir, weather string)
		reasons []string // substrings of the problems, in path order; none: clean
	}{
		{name: "recorded entries are clean", opts: VerifyOptions{Canonical: canonical, Secrets: []string{"k3y-s3cret"}}},
		{name: "an edited body without its checksum", tamper: func(t *testing.T, _, weather string) {
			edit(t, weather, func(m map[string]any) { m["response"] = map[string]any{"temp_c": 40} })
		}, reasons: []string{"checksum mismatch"}},
		{name: "an entry without a checksum", tamper: func(t *testing.T, _, weather string) {
			edit(t, weather, func(m map[string]any) { delete(m, "checksum") })
		}, reasons: []string{"checksum mismatch"}},
		{name: "a key field that is not the file's name", tamper: func(t *testing.T, _, weather string) {
			edit(t, weather, func(m map[string]any) { m["key"] = strings.Repeat("0", 64) })
		}, reasons: []string{"is not the file's name"}},
		{name: "arguments of another call", tamper: func(t *testing.T, _, weather string) {
			edit(t, weather, func(m map[string]any) { m["arguments"] = map[string]any{"q": "Rome", "days": 3} })
		}, reasons: []string{"belong to key"}},
		{name: "a call keyed without its defaults", opts: VerifyOptions{Canonical: func(tool, api string, args map[string]any) (map[string]any, error) {
			out := map[string]any{"lang": "en"}
			for k, v := range args {
				out[k] = v
			}
			return out, nil
		}}, reasons: []string{"not the canonical call", "not the canonical call"}},
		{name: "an API the catalog lacks", opts: VerifyOptions{Canonical: func(string, string, map[string]any) (map[string]any, error) {
			return nil, errors.New("no API")
		}}, reasons: []string{"not a call of the catalog", "not a call of the catalog"}},
		{name: "the key in use, planted", opts: VerifyOptions{Secrets: []string{"", "k3y-s3cret"}}, tamper: func(t *testing.T, _, weather string) {
			rewrite(t, weather, Entry{Response: []byte(`{"echo":"k3y-s3cret"}`)})
		}, reasons: []string{"holds the API key"}},
		{name: "an sk- key", tamper: func(t *testing.T, _, weather string) {
			rewrite(t, weather, Entry{Response: []byte(`{"error":"invalid toolbench_key sk-abcdefghijklmnopqrstuv"}`)})
		}, reasons: []string{"an sk- API key"}},
		{name: "a bearer token", tamper: func(t *testing.T, _, weather string) {
			rewrite(t, weather, Entry{Response: []byte(`{"headers":{"Authorization":"Bearer eyJhbGciOiJIUzI1NiJ9"}}`)})
		}, reasons: []string{"a Bearer token"}},
		{name: "prose about bearer bonds", tamper: func(t *testing.T, _, weather string) {
			rewrite(t, weather, Entry{Response: []byte(`{"title":"Bearer instruments return","body":"Bearer bonds, then Bearer abc123def456"}`)})
		}, reasons: []string{"a Bearer token (Bearer abc12…)"}},
		{name: "an X-RapidAPI-Key header", tamper: func(t *testing.T, _, weather string) {
			rewrite(t, weather, Entry{Response: []byte(`{"headers":{"X-RapidAPI-Key":"0123456789abcdef"}}`)})
		}, reasons: []string{"an X-RapidAPI-Key value"}},
		{name: "a RapidAPI key", tamper: func(t *testing.T, _, weather string) {
			rewrite(t, weather, Entry{Response: []byte(`{"k":"0a1b2c3d4emsh0a1b2c3d4e5f6a7p10a1b2c3d4e5fjsn0a1b2c3d4e5f"}`)})
		}, reasons: []string{"a RapidAPI key"}},
		{name: "a secret in an edited entry: both reported", opts: VerifyOptions{Secrets: []string{"k3y-s3cret"}}, tamper: func(t *testing.T, _, weather string) {
			edit(t, weather, func(m map[string]any) { m["response"] = map[string]any{"echo": "k3y-s3cret sk-abcdefghijklmnopqrstuv"} })
		}, reasons: []string{"checksum mismatch", "holds the API key", "an sk- API key"}},
		{name: "a secret in a corrupt entry: both reported", tamper: func(t *testing.T, _, weather string) {
			require.NoError(t, os.WriteFile(weather, []byte(`{"format":"understudy-recording/1","response":"sk-abcdefghijklmnopqrstuv`), 0o644))
		}, reasons: []string{"truncated or not a JSON object", "an sk- API key"}},
		{name: "a format this version does not read", tamper: func(t *testing.T, _, weather string) {
			rewrite(t, weather, Entry{Response: []byte(`{"temp_c":18.5}`)})
			edit(t, weather, func(m map[string]any) { m["format"] = "understudy-recording/999" })
		}, reasons: []string{`"format" "understudy-recording/999" is not one this version reads`}},
		{name: "a file that is not JSON", tamper: func(t *testing.T, _, weather string) {
			require.NoError(t, os.WriteFile(weather, []byte(`{"format":`), 0o644))
		}, reasons: []string{"truncated or not a JSON object"}},
		{name: "an entry the index does not name", tamper: func(t *testing.T, dir, _ string) {
			b, err := os.ReadFile(filepath.Join(dir, indexName))
			require.NoError(t, err)
			lines := strings.SplitAfter(string(b), "\n")
			require.NoError(t, os.WriteFile(filepath.Join(dir, indexName), []byte(lines[1]), 0o644))
		}, reasons: []string{"does not name"}},
		{name: "a stray file", tamper: func(t *testing.T, dir, _ string) {
			require.NoError(t, os.WriteFile(filepath.Join(dir, "ab", "notes.txt"), []byte("x"), 0o644))
		}, reasons: []string{"not an entry file"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir, weather := storeToVerify(t)
			require.NoError(t, os.MkdirAll(filepath.Join(dir, "ab"), 0o755))
			if tc.tamper != nil {
				tc.tamper(t, dir, weather)
			}
			rep, err := Verify(dir, tc.opts)
			require.NoError(t, err)
			require.Equal(t, 2, rep.Entries)
			require.Len(t, rep.Problems, len(tc.reasons), "%v", rep.Problems)
			for i, want := range tc.reasons {
				require.Contains(t, rep.Problems[i].Reason, want)
			}
		})
	}
}

// rewrite replaces an entry's response through the store's own encoder,
// checksum included, as a recording that really held it would be.
func rewrite(t *testing.T, path string, e Entry) {
	t.Helper()
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	old, err := decodeEntry(path, b, "", false)
	require.NoError(t, err)
	old.Response = e.Response
	k := makeKey(old.Tool, old.API, string(old.Arguments))
	data, err := encodeEntry(k, &old)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(path, data, 0o644))
}

func TestVerifyMissingDirectory(t *testing.T) {
	_, err := Verify(filepath.Join(t.TempDir(), "absent"), VerifyOptions{})
	require.Error(t, err)
}

// FuzzVerifyEntry feeds arbitrary entry files to the check: it never
// panics, and since no call hashes to the file's made-up name, it always
// reports a problem.
func FuzzVerifyEntry(f *testing.F) {
	f.Add([]byte(`{"format":"understudy-recording/1","tool":"t","api":"a","response":{}}`))
	f.Add([]byte(`{"format":"understudy-recording/1","key":"x","tool":"t","api":"a","arguments":[],"response":1,"checksum":"sha256:"}`))
	f.Add([]byte("Bearer abcdefghij sk-0123456789abcdef0123"))
	h := strings.Repeat("ab", 32)
	f.Fuzz(func(t *testing.T, data []byte) {
		var problems []Problem
		verifyEntry("ab/"+h+".json", h, data, VerifyOptions{
			Canonical: func(_, _ string, args map[string]any) (map[string]any, error) { return args, nil },
			Secrets:   []string{"secret"},
		}, func(p, format string, args ...any) { problems = append(problems, Problem{Path: p}) })
		require.NotEmpty(t, problems)
	})
}

// TestUnknownFormatIsNotServed: an entry of a format this version does not
// read (understudy-recording/999) is refused as corrupt, never served as
// version 1, from a directory and from Redis.
func TestUnknownFormatIsNotServed(t *testing.T) {
	dir, weather := storeToVerify(t)
	edit(t, weather, func(m map[string]any) { m["format"] = "understudy-recording/999" })
	s, _ := openTest(t, dir, Options{})
	_, ok, err := s.Get(weatherKey())
	require.False(t, ok)
	var ce *CorruptError
	require.ErrorAs(t, err, &ce)
	require.Contains(t, ce.Reason, "understudy-recording/999")

	data, err := os.ReadFile(weather)
	require.NoError(t, err)
	m, rs := newMiniRedis(t, RedisOptions{})
	require.NoError(t, m.Set("understudy:rec:"+weatherKey().Hash(), string(data)))
	_, ok, err = rs.Get(weatherKey())
	require.False(t, ok)
	require.ErrorAs(t, err, &ce)
}
