package server_test

import (
	"crypto/sha256"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/understudy/understudy/internal/assemble"
	"github.com/understudy/understudy/internal/golden"
	"github.com/understudy/understudy/sandbox"
)

// TestResponsesAreStable pins the exact status, headers and bytes of every
// route, error and transport: refactoring the handlers must not change what
// a client sees. Bodies above 2 KiB are pinned by their hash.
func TestResponsesAreStable(t *testing.T) {
	const rapid = "image-file-processing.understudy.test"
	wire := func(h string) map[string]string {
		return map[string]string{"X-RapidAPI-Host": h, "X-RapidAPI-Key": "k"}
	}
	type req struct {
		name, method, path, ctype, body string
		hdr                             map[string]string
	}
	reqs := []req{
		{"healthz", "GET", "/healthz", "", "", nil},
		{"catalog", "GET", "/v1/catalog", "", "", nil},
		{"tools", "GET", "/v1/tools?naming=toolbench", "", "", nil},
		{"tools bad format", "GET", "/v1/tools?format=yaml", "", "", nil},
		{"tools bad naming", "GET", "/v1/tools?naming=camel", "", "", nil},
		{"deps", "GET", "/v1/deps", "", "", nil},
		{"deps dot", "GET", "/v1/deps?format=dot", "", "", nil},
		{"deps bad format", "GET", "/v1/deps?format=svg", "", "", nil},
		{"call", "POST", "/v1/call", "application/json", `{"tool":"calculator","api":"calculate","arguments":{"expression":"2*(3+4)"},"session":"s"}`, nil},
		{"call by function name", "POST", "/v1/call", "", `{"api":"calculate_for_calculator","arguments":"{\"expression\": \"1+1\"}","session":"s"}`, nil},
		{"call api-level refusal", "POST", "/v1/call", "application/json", `{"tool":"iso_codes","api":"country_by_code","arguments":{"code":"ZZ"},"session":"s"}`, nil},
		{"call malformed json", "POST", "/v1/call", "application/json", `{"tool": "calculator",`, nil},
		{"call empty body", "POST", "/v1/call", "application/json", ``, nil},
		{"call trailing data", "POST", "/v1/call", "application/json", `{"api":"x"} {}`, nil},
		{"call wrong content type", "POST", "/v1/call", "application/xml", `{}`, nil},
		{"call name too long", "POST", "/v1/call", "application/json", `{"tool":"calculator","api":"` + strings.Repeat("calculate", 100) + `"}`, nil},
		{"call cross-origin", "POST", "/v1/call", "text/plain", `{"tool":"calculator","api":"calculate","arguments":{"expression":"1"}}`, map[string]string{"Origin": "https://evil.example"}},
		{"redirect", "GET", "/v1/../healthz", "", "", nil},
		{"call oversized body", "POST", "/v1/call", "application/json", `{"api":"` + strings.Repeat("x", 70<<10) + `"}`, nil},
		{"call missing api", "POST", "/v1/call", "application/json", `{"tool":"calculator"}`, nil},
		{"call arguments not an object", "POST", "/v1/call", "application/json", `{"tool":"calculator","api":"calculate","arguments":[1]}`, nil},
		{"call unknown api", "POST", "/v1/call", "application/json", `{"tool":"image_file_processing","api":"resize_imgae","arguments":{}}`, nil},
		{"call unknown tool", "POST", "/v1/call", "application/json", `{"tool":"nope","api":"x","arguments":{}}`, nil},
		{"call invalid arguments", "POST", "/v1/call", "application/json", `{"tool":"image_file_processing","api":"resize_image","arguments":{"width":"wide","bogus":1}}`, nil},
		{"call wrong method", "GET", "/v1/call", "", "", nil},
		{"session", "GET", "/v1/sessions/s", "", "", nil},
		{"session unknown", "GET", "/v1/sessions/nope", "", "", nil},
		{"no route", "GET", "/v2/nothing", "", "", nil},
		{"virtual", "POST", "/virtual", "application/json", `{"category":"Tools","tool_name":"calculator","api_name":"calculate","tool_input":"{\"expression\": \"6*7\"}","strip":"","toolbench_key":"k"}`, nil},
		{"virtual function name", "POST", "/virtual", "application/json", `{"tool_name":"calculator","api_name":"calculate_for_calculator","tool_input":{"expression":"6*7"}}`, nil},
		{"virtual api-level refusal", "POST", "/virtual", "application/json", `{"tool_name":"iso_codes","api_name":"country_by_code","tool_input":{"code":"ZZ"}}`, nil},
		{"virtual invalid arguments", "POST", "/virtual", "application/json", `{"tool_name":"image_file_processing","api_name":"resize_image","tool_input":"{\"width\": \"wide\"}"}`, nil},
		{"virtual unknown api", "POST", "/virtual", "application/json", `{"tool_name":"no_tool","api_name":"resize_image","tool_input":""}`, nil},
		{"virtual bad tool_input", "POST", "/virtual", "application/json", `{"tool_name":"image_file_processing","api_name":"image_info","tool_input":"{not json"}`, nil},
		{"virtual not json", "POST", "/virtual", "application/json", `not json at all`, nil},
		{"virtual wrong content type", "POST", "/virtual", "multipart/form-data; boundary=x", `{}`, nil},
		{"virtual name too long", "POST", "/virtual", "application/json", `{"tool_name":"calculator","api_name":"` + strings.Repeat("calculate", 100) + `"}`, nil},
		{"virtual oversized body", "POST", "/virtual", "application/json", `{"api_name":"` + strings.Repeat("x", 70<<10) + `"}`, nil},
		{"virtual truncate", "POST", "/virtual", "application/json", `{"tool_name":"web_search","api_name":"image_search","tool_input":{"q":"street sign","num":10},"strip":"truncate"}`, nil},
		{"rapidapi", "POST", "/rapidapi", "application/json", `{"tool_name":"calculator","api_name":"calculate","tool_input":{"expression":"6*7"}}`, nil},
		{"wire", "GET", "/v1/resize?image_url=https://images.understudy.test/product_laptop.jpg&width=160", "", "", wire(rapid)},
		{"wire trailing slash", "GET", "/v1/info/?image_url=https://images.understudy.test/product_laptop.jpg", "", "", wire(rapid)},
		{"wire host case", "GET", "/v1/info?image_url=https://images.understudy.test/product_laptop.jpg", "", "", wire("Image-File-Processing.UNDERSTUDY.test")},
		{"wire path parameter", "GET", "/countries/PT", "", "", wire("iso-codes.understudy.test")},
		{"wire path parameter refused", "GET", "/countries/ZZ", "", "", wire("iso-codes.understudy.test")},
		{"wire literal beats parameter", "GET", "/LongWeekend/2025/PT", "", "", wire("public-holiday.p.rapidapi.com")},
		{"wire two parameters", "GET", "/2025/PT", "", "", wire("public-holiday.p.rapidapi.com")},
		{"wire escaped parameter", "GET", "/countries/P%54", "", "", wire("iso-codes.understudy.test")},
		{"wire template with trailing slash", "GET", "/json/?ip=8.8.8.8", "", "", wire("ip-geolocation-ipwhois-io.p.rapidapi.com")},
		{"wire post body", "POST", "/run", "application/json", `{"code":"print(1+1)"}`, wire("python-interpreter.understudy.test")},
		{"wire post wrong content type", "POST", "/run", "application/xml", `print(1)`, wire("python-interpreter.understudy.test")},
		{"wire post malformed body", "POST", "/run", "application/json", `{"code":`, wire("python-interpreter.understudy.test")},
		{"wire validated as http", "GET", "/v1/resize?width=wide", "", "", wire(rapid)},
		{"wire unknown host", "GET", "/anything", "", "", wire("nope.p.rapidapi.com")},
		{"wire unknown path", "GET", "/v1/nothing", "", "", wire(rapid)},
		{"wire wrong method", "POST", "/v1/resize", "application/json", `{}`, wire(rapid)},
		{"wire head", "HEAD", "/v1/info?image_url=https://images.understudy.test/product_laptop.jpg", "", "", wire(rapid)},
		{"wire unclean path", "GET", "/v1//resize?image_url=https://images.understudy.test/product_laptop.jpg&width=160", "", "", wire(rapid)},
		{"wire native path is not served", "GET", "/healthz", "", "", wire(rapid)},
		{"metrics", "GET", "/metrics", "", "", nil},
		// After the session and metrics above, which they would change.
		{"call curl -d default content type", "POST", "/v1/call", "application/x-www-form-urlencoded", `{"tool":"calculator","api":"calculate","arguments":{"expression":"2*(3+4)"},"session":"later"}`, nil},
		{"call status passthrough", "POST", "/v1/call", "application/json", `{"tool":"iso_codes","api":"country_by_code","arguments":{"code":"ZZ"},"session":"later"}`, map[string]string{"X-Understudy-Status": "passthrough"}},
		{"virtual curl -d default content type", "POST", "/virtual", "application/x-www-form-urlencoded", `{"tool_name":"calculator","api_name":"calculate","tool_input":{"expression":"6*7"}}`, nil},
	}
	ts, _ := newServer(t, assemble.Config{})
	replay, _ := newServer(t, assemble.Config{Mode: sandbox.ModeReplay, CacheDir: t.TempDir()})

	var out strings.Builder
	show := func(name, base string, r req) {
		code, hdr, body := do(t, r.method, base+r.path, r.ctype, r.body, r.hdr)
		fmt.Fprintf(&out, "### %s\n%s %s\n%d\n", name, r.method, r.path, code)
		var names []string
		for k := range hdr {
			switch k {
			case "Date", "Content-Length", "Mcp-Session-Id":
				continue
			}
			names = append(names, k)
		}
		slices.Sort(names)
		for _, k := range names {
			fmt.Fprintf(&out, "%s: %s\n", k, strings.Join(hdr[k], ", "))
		}
		// Metrics are shown whole: they are read line by line.
		if len(body) > 2048 && r.path != "/metrics" {
			fmt.Fprintf(&out, "\n<%d bytes, sha256 %x>\n\n", len(body), sha256.Sum256(body))
			return
		}
		fmt.Fprintf(&out, "\n%s\n\n", body)
	}
	for _, r := range reqs {
		show(r.name, ts.URL, r)
	}
	// In replay mode a call nobody recorded is a miss that names its key.
	show("replay miss", replay.URL, req{"", "POST", "/v1/call", "application/json", `{"tool":"calculator","api":"calculate","arguments":{"expression":"12345*6789"}}`, nil})
	show("replay miss on /virtual", replay.URL, req{"", "POST", "/virtual", "application/json", `{"tool_name":"calculator","api_name":"calculate","tool_input":{"expression":"12345*6789"}}`, nil})
	show("replay miss on the wire", replay.URL, req{"", "GET", "/calculate?expression=12345*6789", "", "", wire("calculator.understudy.test")})
	golden.Check(t, filepath.Join("testdata", "responses.golden"), []byte(out.String()))
}
