package server

import (
	"cmp"
	"encoding/json"
	"fmt"
	"net/http"

	"github.com/understudy/understudy/sandbox"
)

// toolbenchRequest is the body StableToolBench's /virtual and ToolBench's
// /rapidapi take. tool_input is a JSON string or an object; "" means {}.
type toolbenchRequest struct {
	Category     string          `json:"category"`
	ToolName     string          `json:"tool_name"`
	APIName      string          `json:"api_name"`
	ToolInput    json.RawMessage `json:"tool_input"`
	Strip        string          `json:"strip"`
	ToolBenchKey string          `json:"toolbench_key"`
	Session      string          `json:"session"`
}

// toolbenchAnswer is exactly what their clients read.
type toolbenchAnswer struct {
	Error    string          `json:"error"`
	Response json.RawMessage `json:"response"`
}

// truncateLimit is ToolBench's strip=truncate length.
const truncateLimit = 2048

// toolbench serves /virtual and /rapidapi. Like the servers it replaces, it
// always answers 200 with {"error", "response"}: their clients read the
// error text, not the status.
func (s *Server) toolbench(r *http.Request) (any, error) {
	answer := func(errText string, resp json.RawMessage) (any, error) {
		if resp == nil {
			resp = json.RawMessage(`""`)
		}
		return toolbenchAnswer{Error: errText, Response: resp}, nil
	}
	var req toolbenchRequest
	if err := requireJSON(r); err != nil {
		return answer(problemOf(err).Detail, nil)
	}
	if err := decodeJSON(r.Body, &req); err != nil {
		return answer(problemOf(err).Detail, nil)
	}
	session := firstNonEmpty(req.Session, r.Header.Get("X-Session-Id"))
	if err := checkCall(req.ToolName, req.APIName, session); err != nil {
		return answer(problemOf(err).Detail, nil)
	}
	args, err := decodeArguments(req.ToolInput)
	if err != nil {
		return answer(problemOf(err).Detail, nil)
	}
	tool, api := req.ToolName, req.APIName
	// ToolBench identifies a tool by category and name, and its clients
	// send the function name "<api>_for_<tool>" at times; parameter names
	// in ToolBench's spelling (is_id) are the catalog's aliases.
	cat := s.engine.Catalog()
	if msg := wrongCategory(cat, req.Category, tool); msg != "" {
		return answer(msg, nil)
	}
	if a := cat.ToolBenchAPI(req.Category, tool, api); a != nil {
		tool, api = a.Tool.StandardizedName, a.Name
	} else if t := cmp.Or(cat.ToolIn(req.Category, tool), cat.Tool(tool)); t != nil {
		if other := cat.APIByFunction(api); other != nil && other.Tool != t {
			// The function name is another tool's API: the call names
			// two, and neither is run.
			return answer(fmt.Sprintf("Unknown API: api_name %q is an API of tool %s, not of tool_name %q (%s)", prefix(api, 64), other.Tool.StandardizedName, prefix(req.ToolName, 64), t.StandardizedName), nil)
		}
		tool = t.StandardizedName // its API is unknown: say so of this tool
	}
	res, err := s.engine.Call(r.Context(), sandbox.Request{
		Tool: tool, API: api, Arguments: args,
		Session: session,
		Client:  clientID(r, req.ToolBenchKey),
	})
	if err != nil {
		return answer(toolbenchError(err), nil)
	}
	body := res.Response
	if req.Strip == "truncate" {
		body = truncateJSON(body, truncateLimit)
	}
	errText := ""
	if res.Status >= 400 {
		errText = fmt.Sprintf("API returned status %d", res.Status)
	}
	if len(res.Warnings) == 0 {
		return answer(errText, body)
	}
	// The body stays what StableToolBench's clients read; the warnings
	// travel in headers.
	out, err := marshal(toolbenchAnswer{Error: errText, Response: body})
	if err != nil {
		return nil, err
	}
	return &rawBody{contentType: "application/json", body: out, header: warningHeader(nil, res.Warnings)}, nil
}

// toolbenchError words an engine error the way StableToolBench's clients
// expect to read it.
func toolbenchError(err error) string {
	// Invalid arguments read word for word as on every other transport
	// (the problem's detail, MCP's tool error).
	switch sandbox.KindOf(err) {
	case sandbox.KindUnknownAPI:
		return "Unknown API: " + err.Error()
	}
	return problemOf(err).Detail
}

// truncateJSON applies ToolBench's strip=truncate: a response longer than
// limit characters becomes a JSON string of its first limit characters.
func truncateJSON(body json.RawMessage, limit int) json.RawMessage {
	runes := []rune(string(body))
	if len(runes) <= limit {
		return body
	}
	b, _ := json.Marshal(string(runes[:limit]))
	return b
}
