package evaltasks

import (
	"fmt"
	"os"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/understudy/understudy/agent"
	"github.com/understudy/understudy/agent/baseline"
	"github.com/understudy/understudy/agent/openai"
	"github.com/understudy/understudy/deps"
	"github.com/understudy/understudy/toolset"
)

// AgentOptions are the settings an agent factory may use (the evalrun flags).
type AgentOptions struct {
	BaseURL   string
	Model     string
	APIKeyEnv string
	// Protocol is "native" (tool calls) or "text" (a ReAct-style prompt).
	Protocol    string
	Temperature float64
	MaxTokens   int
	Seed        *int
	Timeout     time.Duration
	MaxRetries  int
	// Concurrency is how many requests may be in flight at once.
	Concurrency int
	// Catalog and Graph are the sandbox's, for agents that read the
	// documentation and dependencies (the baseline); nil works without.
	Catalog *toolset.Catalog
	Graph   *deps.Graph
}

// AgentFactory builds an agent from options.
type AgentFactory func(AgentOptions) (agent.Agent, error)

var (
	agentsMu sync.RWMutex
	agents   = map[string]AgentFactory{}
)

// RegisterAgent makes an agent selectable by name (evalrun -agent NAME).
// Built-in: "oracle" (answers from the gold annotations), "baseline" (the
// model-free floor of baseline.Agent), "openai" (an OpenAI-compatible
// endpoint) and "replay" (an openai transcript, from the directory named by
// the environment variable openai.TranscriptEnv). Registering a name twice, or a nil
// factory, panics: it is a programming error, found at start-up.
func RegisterAgent(name string, f AgentFactory) {
	agentsMu.Lock()
	defer agentsMu.Unlock()
	if f == nil {
		panic("evaltasks: RegisterAgent with a nil factory for " + name)
	}
	if _, dup := agents[name]; dup {
		panic("evaltasks: agent " + name + " registered twice")
	}
	agents[name] = f
}

// UnknownAgentError names an agent nobody registered.
type UnknownAgentError struct {
	Name  string
	Known []string
}

func (e *UnknownAgentError) Error() string {
	return fmt.Sprintf("unknown agent %q (known: %s)", e.Name, strings.Join(e.Known, ", "))
}

// NewAgent builds a registered agent.
func NewAgent(name string, o AgentOptions) (agent.Agent, error) {
	agentsMu.RLock()
	f, ok := agents[name]
	agentsMu.RUnlock()
	if !ok {
		return nil, &UnknownAgentError{Name: name, Known: AgentNames()}
	}
	return f(o)
}

// AgentNames lists the registered agents, sorted.
func AgentNames() []string {
	agentsMu.RLock()
	defer agentsMu.RUnlock()
	out := make([]string, 0, len(agents))
	for n := range agents {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// DefaultAgent is the agent evalrun runs without -agent: the built-in
// baseline once one is registered, else the oracle.
func DefaultAgent() string {
	agentsMu.RLock()
	defer agentsMu.RUnlock()
	if _, ok := agents["baseline"]; ok {
		return "baseline"
	}
	return "oracle"
}

func init() {
	RegisterAgent("oracle", func(AgentOptions) (agent.Agent, error) { return agent.Oracle{}, nil })
	RegisterAgent("baseline", func(o AgentOptions) (agent.Agent, error) {
		return baseline.New(o.Catalog, o.Graph), nil
	})
	RegisterAgent("openai", func(o AgentOptions) (agent.Agent, error) {
		c, err := openai.NewClient(openAIConfig(o))
		if err != nil {
			return nil, err
		}
		return c, nil
	})
	RegisterAgent("replay", func(o AgentOptions) (agent.Agent, error) {
		r, err := openai.NewReplayAgent(os.Getenv(openai.TranscriptEnv), openAIConfig(o))
		if err != nil {
			return nil, err
		}
		return r, nil
	})
}

func openAIConfig(o AgentOptions) openai.Config {
	return openai.Config{
		BaseURL:       o.BaseURL,
		Model:         o.Model,
		APIKeyEnv:     o.APIKeyEnv,
		Protocol:      openai.Protocol(o.Protocol),
		Temperature:   o.Temperature,
		MaxTokens:     o.MaxTokens,
		Seed:          o.Seed,
		Timeout:       o.Timeout,
		MaxRetries:    o.MaxRetries,
		MaxConcurrent: o.Concurrency,
	}
}

// NewOpenAIJudge builds a judge on an OpenAI-compatible endpoint at
// temperature 0 (o.Temperature is ignored).
func NewOpenAIJudge(o AgentOptions, votes int) (*Judge, error) {
	o.Temperature = 0
	o.Protocol = ""
	c, err := openai.NewClient(openAIConfig(o))
	if err != nil {
		return nil, fmt.Errorf("judge: %w", err)
	}
	j := &Judge{Model: c, Name: "judge:" + o.Model, Votes: votes}
	j.Votes = j.votes()
	j.Name = fmt.Sprintf("judge:%s (%d votes, majority)", o.Model, j.Votes)
	return j, nil
}
