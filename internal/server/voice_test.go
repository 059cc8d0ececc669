package server_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/require"

	"github.com/understudy/understudy/internal/assemble"
	"github.com/understudy/understudy/toolset"
)

// TestOneVoiceForViolations: the same invalid arguments are refused in the
// same words on every transport — native, /virtual, /rapidapi, the
// RapidAPI wire and MCP — so that an agent, a log or a person reading any
// of them reads one message.
func TestOneVoiceForViolations(t *testing.T) {
	ts, _ := newServer(t, assemble.Config{})
	cs := mcpClient(t, ts.URL+"/mcp")
	for _, tc := range []struct {
		name      string
		tool, api string
		host      string // the tool's RapidAPI host
		path      string // the API's path on the wire
		args      map[string]any
		want      string // the detail every transport says
	}{
		{"missing required", "weatherapi_com", "realtime_weather_api", "weatherapi-com.p.rapidapi.com", "/current.json", map[string]any{},
			`invalid arguments for weatherapi_com.realtime_weather_api: q: required argument "q" is missing`},
		{"wrong type", "image_file_processing", "resize_image", "image-file-processing.understudy.test", "/v1/resize",
			map[string]any{"image_url": "https://example.test/a.png", "width": "wide", "height": 10},
			`invalid arguments for image_file_processing.resize_image: width: expected a number, got the string "wide"`},
		{"missing and wrong", "image_file_processing", "resize_image", "image-file-processing.understudy.test", "/v1/resize",
			map[string]any{"width": "wide"},
			`invalid arguments for image_file_processing.resize_image: image_url: required argument "image_url" is missing; width: expected a number, got the string "wide"`},
		{"unknown argument", "iso_codes", "country_by_code", "iso-codes.understudy.test", "/countries/PT", map[string]any{"code": "PT", "langauge": "en"},
			`invalid arguments for iso_codes.country_by_code: langauge: unknown argument "langauge"; the API takes: code`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// The wire sends every value as text, as a query string does;
			// the others send JSON of the schema's types.
			args := tc.args
			q := url.Values{}
			for k, v := range args {
				q.Set(k, fmt.Sprint(v))
			}
			in, err := json.Marshal(args)
			require.NoError(t, err)
			said := map[string]string{}

			code, _, body := do(t, "POST", ts.URL+"/v1/call", "application/json",
				`{"tool":"`+tc.tool+`","api":"`+tc.api+`","arguments":`+string(in)+`}`, nil)
			require.Equal(t, 400, code, string(body))
			var p struct{ Detail string }
			require.NoError(t, json.Unmarshal(body, &p))
			said["native"] = p.Detail

			code, _, body = do(t, "GET", ts.URL+tc.path+"?"+q.Encode(), "", "", map[string]string{"X-RapidAPI-Host": tc.host, "X-RapidAPI-Key": "k"})
			require.Equal(t, 400, code, string(body))
			require.NoError(t, json.Unmarshal(body, &p))
			said["wire"] = p.Detail

			for _, path := range []string{"/virtual", "/rapidapi"} {
				code, _, body = do(t, "POST", ts.URL+path, "application/json",
					`{"tool_name":"`+tc.tool+`","api_name":"`+tc.api+`","tool_input":`+string(in)+`}`, nil)
				require.Equal(t, 200, code, string(body))
				var tb struct{ Error string }
				require.NoError(t, json.Unmarshal(body, &tb))
				said[path] = tb.Error
			}

			res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: toolset.ExportName(apiOf(t, tc.tool, tc.api), toolset.NameToolBench), Arguments: args})
			require.NoError(t, err)
			require.True(t, res.IsError)
			said["mcp"] = res.Content[0].(*mcp.TextContent).Text

			for where, s := range said {
				require.Equal(t, tc.want, s, where)
			}
		})
	}
}
