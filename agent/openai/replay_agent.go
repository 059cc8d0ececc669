package openai

import (
	"fmt"
	"os"
)

// TranscriptEnv names the environment variable holding the transcript
// directory the replay agent answers from (evalrun -agent replay).
const TranscriptEnv = "UNDERSTUDY_TRANSCRIPT"

// ReplayError reports a replay agent that cannot be built.
type ReplayError struct{ Reason string }

func (e *ReplayError) Error() string { return "replay agent: " + e.Reason }

// NewReplayAgent answers from the transcript in dir, keying requests as a
// Client configured by cfg would: the same model, protocol, temperature,
// token limit and seed as the recorded run; cfg's other fields are not
// used. It needs no network: the base URL only has to be well formed and
// defaults to a placeholder.
func NewReplayAgent(dir string, cfg Config) (*Replayer, error) {
	if dir == "" {
		return nil, &ReplayError{Reason: "no transcript directory: set " + TranscriptEnv}
	}
	st, err := os.Stat(dir)
	if err != nil || !st.IsDir() {
		return nil, &ReplayError{Reason: fmt.Sprintf("transcript directory %q does not exist", dir)}
	}
	if cfg.Model == "" {
		return nil, &ReplayError{Reason: "-model must name the recorded model, since it is part of every request key"}
	}
	base := cfg.BaseURL
	if base == "" {
		base = "http://replay.invalid/v1"
	}
	b, err := NewClient(Config{
		BaseURL: base, Model: cfg.Model, Protocol: cfg.Protocol,
		Temperature: cfg.Temperature, MaxTokens: cfg.MaxTokens, Seed: cfg.Seed,
	})
	if err != nil {
		return nil, &ReplayError{Reason: err.Error()}
	}
	t, err := OpenTranscript(dir)
	if err != nil {
		return nil, &ReplayError{Reason: err.Error()}
	}
	return NewReplayer(t, b), nil
}
