package toolset

// Credential is one credential a declared security scheme asks of a
// request: an API key in a header or the query, or a bearer token.
type Credential struct {
	// Scheme is the scheme's name in the source document.
	Scheme string `json:"scheme"`
	// Type is "apiKey" or "bearer".
	Type string `json:"type"`
	// In and Name say where an API key goes: "header" or "query", and the
	// header or query parameter's name.
	In   string `json:"in,omitempty"`
	Name string `json:"name,omitempty"`
}

// Credential types.
const (
	CredentialAPIKey = "apiKey"
	CredentialBearer = "bearer"
)
