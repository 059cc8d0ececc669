package toolset

// OpenAITool is one entry of the OpenAI chat-completions "tools" array.
type OpenAITool struct {
	Type     string         `json:"type"` // always "function"
	Function OpenAIFunction `json:"function"`
}

// OpenAIFunction describes one callable function; Parameters is a JSON Schema object.
type OpenAIFunction struct {
	Name        string         `json:"name"`
	Description string         `json:"description,omitempty"`
	Parameters  map[string]any `json:"parameters"`
}
