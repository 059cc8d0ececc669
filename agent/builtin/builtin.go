// Package builtin registers the replay agent (answers from recorded model transcripts) with evalrun's agent registry; oracle, baseline and openai are registered by evaltasks itself.
package builtin

import (
	"fmt"
	"os"

	"github.com/understudy/understudy/agent"
	"github.com/understudy/understudy/evaltasks"
)

// TranscriptEnv names the environment variable holding the transcript
// directory the replay agent answers from.
const TranscriptEnv = "UNDERSTUDY_TRANSCRIPT"

func init() {
	evaltasks.RegisterAgent("replay", func(o evaltasks.AgentOptions) (agent.Agent, error) {
		return Replay(os.Getenv(TranscriptEnv), o)
	})
}

// ReplayError reports a replay agent that cannot be built.
type ReplayError struct{ Reason string }

func (e *ReplayError) Error() string { return "replay agent: " + e.Reason }

// Replay answers from the transcript in dir, keying requests as an
// OpenAI-compatible client configured by o would (same model, protocol,
// temperature, token limit and seed as the recorded run). It needs no
// network: the base URL only has to be well formed and defaults to a
// placeholder.
func Replay(dir string, o evaltasks.AgentOptions) (agent.Agent, error) {
	if dir == "" {
		return nil, &ReplayError{Reason: "no transcript directory: set " + TranscriptEnv}
	}
	st, err := os.Stat(dir)
	if err != nil || !st.IsDir() {
		return nil, &ReplayError{Reason: fmt.Sprintf("transcript directory %q does not exist", dir)}
	}
	if o.Model == "" {
		return nil, &ReplayError{Reason: "-model must name the recorded model, since it is part of every request key"}
	}
	base := o.BaseURL
	if base == "" {
		base = "http://replay.invalid/v1"
	}
	b, err := agent.NewOpenAIClient(agent.OpenAIConfig{
		BaseURL: base, Model: o.Model, Protocol: agent.Protocol(o.Protocol),
		Temperature: o.Temperature, MaxTokens: o.MaxTokens, Seed: o.Seed,
	})
	if err != nil {
		return nil, &ReplayError{Reason: err.Error()}
	}
	t, err := agent.OpenTranscript(dir)
	if err != nil {
		return nil, &ReplayError{Reason: err.Error()}
	}
	return agent.NewReplayer(t, b), nil
}
