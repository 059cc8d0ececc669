// Package agent is the agent under test: the interface every agent implements, the executors that run its tool calls, and the oracle.
package agent

import (
	"context"
	"encoding/json"

	"github.com/understudy/understudy/toolset"
)

// FinishName is ToolLLM's function that ends an attempt: the solvers offer
// it beside the task's tools, and an agent calls it to give its answer or
// to give up.
const FinishName = "Finish"

// Roles of chat messages, as in the OpenAI chat-completions API.
const (
	RoleSystem    = "system"
	RoleUser      = "user"
	RoleAssistant = "assistant"
	RoleTool      = "tool"
)

// Message is one chat message.
type Message struct {
	Role    string `json:"role"`
	Content string `json:"content"`
	// ToolCalls are the calls an assistant message makes.
	ToolCalls []ToolCall `json:"tool_calls,omitempty"`
	// ToolCallID ties a tool message to the call it answers.
	ToolCallID string `json:"tool_call_id,omitempty"`
	// Name is the function name on a tool message.
	Name string `json:"name,omitempty"`
}

// ToolCall is one function call requested by the model. Arguments is the
// JSON object of arguments; ArgumentsError is set instead when the model
// sent arguments that are not a JSON object (kept verbatim in RawArguments).
type ToolCall struct {
	ID             string          `json:"id"`
	Name           string          `json:"name"`
	Arguments      json.RawMessage `json:"arguments,omitempty"`
	RawArguments   string          `json:"raw_arguments,omitempty"`
	ArgumentsError string          `json:"arguments_error,omitempty"`
}

// Usage counts tokens as the model server reports them.
type Usage struct {
	PromptTokens     int `json:"prompt_tokens"`
	CompletionTokens int `json:"completion_tokens"`
	TotalTokens      int `json:"total_tokens"`
}

// Reply is an agent's answer to one turn: text, tool calls, or both.
type Reply struct {
	Content   string     `json:"content,omitempty"`
	ToolCalls []ToolCall `json:"tool_calls,omitempty"`
	// Reasoning is the model's separate reasoning text (reasoning_content), kept for the record.
	Reasoning string `json:"reasoning,omitempty"`
	Usage     Usage  `json:"usage"`
	// ParseError is set when the model's output could not be understood
	// (malformed tool call, unknown text-protocol action); scorers count it
	// as its own outcome, never as an abstention.
	ParseError string `json:"parse_error,omitempty"`
}

// Agent answers a conversation given the tools it may call.
type Agent interface {
	Respond(ctx context.Context, messages []Message, tools []toolset.OpenAITool) (Reply, error)
}
