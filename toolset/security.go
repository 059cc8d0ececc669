package toolset

import (
	"maps"
	"slices"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
)

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

// operationSecurity reads what an OpenAPI operation requires: its own
// security, else the document's, as alternatives of which a request must
// satisfy one, each naming every credential it needs. An empty
// alternative ({}) makes security optional: nil. Alternatives with a
// scheme other than an apiKey in a header or the query or HTTP bearer
// (OAuth 2, cookies, basic) are left out, since they cannot be checked
// here; nil when none is left.
func operationSecurity(doc *openapi3.T, op *openapi3.Operation) [][]Credential {
	reqs := doc.Security
	if op.Security != nil {
		reqs = *op.Security
	}
	if len(reqs) == 0 || doc.Components == nil {
		return nil
	}
	var out [][]Credential
	for _, req := range reqs {
		if len(req) == 0 {
			return nil // anonymous access is one of the alternatives
		}
		var alt []Credential
		for _, name := range slices.Sorted(maps.Keys(req)) {
			sr := doc.Components.SecuritySchemes[name]
			if sr == nil || sr.Value == nil {
				alt = nil
				break
			}
			s := sr.Value
			switch {
			case strings.EqualFold(s.Type, "apiKey") && (strings.EqualFold(s.In, "header") || strings.EqualFold(s.In, "query")) && s.Name != "":
				alt = append(alt, Credential{Scheme: name, Type: CredentialAPIKey, In: strings.ToLower(s.In), Name: s.Name})
			case strings.EqualFold(s.Type, "http") && strings.EqualFold(s.Scheme, "bearer"):
				alt = append(alt, Credential{Scheme: name, Type: CredentialBearer})
			default:
				alt = nil
			}
			if alt == nil {
				break
			}
		}
		if alt != nil {
			out = append(out, alt)
		}
	}
	return out
}
