package server

import (
	"context"
	"fmt"
	"net/http"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/understudy/understudy/internal/mcphttp"
	"github.com/understudy/understudy/sandbox"
	"github.com/understudy/understudy/toolset"
)

// MCPServer lists every API of the catalog as an MCP tool, named by
// ToolBench's "<api>_for_<tool>", and runs calls through the engine. A call
// the engine refuses (invalid arguments, unknown API, rate limit) comes
// back as a tool error (isError) carrying the message; an API-level failure
// (a 4xx the real API would give) is a tool error with the API's body.
func MCPServer(e *sandbox.Engine, version string) *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "understudy", Title: "Understudy tool sandbox", Version: version}, nil)
	for _, a := range e.Catalog().APIs() {
		api := a
		desc := api.Description
		if api.Tool.Description != "" {
			desc = fmt.Sprintf("%s (tool %s: %s)", api.Description, api.Tool.Title, api.Tool.Description)
		}
		s.AddTool(&mcp.Tool{
			Name:        toolset.ExportName(api, toolset.NameToolBench),
			Title:       api.Tool.Title + ": " + api.Name,
			Description: desc,
			InputSchema: api.InputSchema(),
		}, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return mcpCall(ctx, e, api, req)
		})
	}
	return s
}

func mcpCall(ctx context.Context, e *sandbox.Engine, api *toolset.API, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	args, err := decodeArguments(req.Params.Arguments)
	if err != nil {
		return toolError(problemOf(err).Detail), nil
	}
	// The client was handed the inputSchema: in strict validation a number
	// for a string is its mistake, not a ToolBench looseness to coerce.
	if err := api.CheckJSONTypesIn(args, e.ValidationMode()); err != nil {
		return toolError(problemOf(err).Detail), nil
	}
	session := "mcp"
	if req.Session != nil && req.Session.ID() != "" {
		session = "mcp-" + req.Session.ID()
	}
	res, err := e.CallAPI(sandbox.WithClient(ctx, session), api, args, session)
	if err != nil {
		return toolError(problemOf(err).Detail), nil
	}
	out := &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: string(res.Response)}}}
	// The structured copy keeps an ID above 2^53 exact: a float64 would
	// print it as another one.
	if structured, err := decodeObject(res.Response); err == nil {
		out.StructuredContent = structured
	}
	if res.Status >= 400 {
		out.IsError = true
	}
	if len(res.Warnings) > 0 {
		// MCP has no headers: the warnings go in the result's _meta.
		out.Meta = mcp.Meta{MCPWarningsKey: res.Warnings}
	}
	return out, nil
}

// MCPWarningsKey is the _meta key of an MCP tool result that lists the
// warnings of lenient validation (see WarningHeader), as the native
// envelope's "warnings" does.
const MCPWarningsKey = "understudy/warnings"

func toolError(msg string) *mcp.CallToolResult {
	return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: msg}}}
}

// The default bounds on MCP sessions over HTTP (MCPOptions).
const (
	DefaultMCPMaxSessions     = mcphttp.DefaultMaxSessions
	DefaultMCPMaxSessionBytes = mcphttp.DefaultMaxBytes
)

// DefaultMCPSessionIdle is how long an MCP session over HTTP may go
// without a request before it is closed and its memory freed: without a
// bound, 3,000 initialize calls kept 149 MB for good.
const DefaultMCPSessionIdle = 30 * time.Minute

// MCPOptions configures MCP over streamable HTTP.
type MCPOptions struct {
	// SessionIdle closes a session after this long without a request
	// (0: DefaultMCPSessionIdle; negative: never). A client whose session
	// was closed gets 404 and starts a new one, as the MCP spec says.
	SessionIdle time.Duration
	// MaxSessions bounds the sessions kept at once (0:
	// DefaultMCPMaxSessions; negative: no bound). A new session beyond it
	// closes the least recently used one not serving a request.
	MaxSessions int
	// MaxSessionBytes bounds the sessions' estimated memory: about 12 KiB
	// each plus the size of its initialize request (0:
	// DefaultMCPMaxSessionBytes; negative: no bound).
	MaxSessionBytes int64
}

// MCPHandler serves MCP over streamable HTTP with the default options.
func MCPHandler(s *mcp.Server) http.Handler { return MCPHandlerWith(s, MCPOptions{}) }

// MCPHandlerWith serves MCP over streamable HTTP.
func MCPHandlerWith(s *mcp.Server, opts MCPOptions) http.Handler {
	return MCPHandlerOf(func() *mcp.Server { return s }, opts)
}

// MCPHandlerOf serves MCP over streamable HTTP with the server build
// makes, called once, on the first MCP request: listing StableToolBench's
// 44,692 APIs as MCP tools takes seconds, which a server that is never
// asked over MCP should not spend before it serves.
//
// The sessions are bounded in number and bytes (MCPOptions) and closed
// when idle by the handler, not the SDK, so that it counts every session
// kept; the handler is a MetricsWriter, whose counts New adds to GET
// /metrics.
func MCPHandlerOf(build func() *mcp.Server, opts MCPOptions) http.Handler {
	server := sync.OnceValue(build)
	idle := opts.SessionIdle
	switch {
	case idle == 0:
		idle = DefaultMCPSessionIdle
	case idle < 0:
		idle = 0 // never
	}
	sdk := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return server() }, nil)
	return mcphttp.New(sdk, mcphttp.Options{MaxSessions: opts.MaxSessions, MaxBytes: opts.MaxSessionBytes, Idle: idle, ProblemBase: ProblemPath, MaxBody: DefaultMaxBody})
}
