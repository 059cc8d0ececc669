package openapi

import (
	"maps"
	"slices"
	"sort"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/understudy/understudy/toolset"
)

// credentialParams lists the query and header parameter names of the
// document's apiKey security schemes, sorted. Cookie keys are left out:
// cookies never become arguments.
func credentialParams(doc *openapi3.T) []string {
	if doc.Components == nil {
		return nil
	}
	var names []string
	for _, sr := range doc.Components.SecuritySchemes {
		if sr == nil || sr.Value == nil || !strings.EqualFold(sr.Value.Type, "apiKey") {
			continue
		}
		switch strings.ToLower(sr.Value.In) {
		case "query", "header":
			if n := sr.Value.Name; n != "" && !slices.Contains(names, n) {
				names = append(names, n)
			}
		}
	}
	sort.Strings(names)
	return names
}

// operationSecurity reads what an OpenAPI operation requires: its own
// security, else the document's, as alternatives of which a request must
// satisfy one, each naming every credential it needs. An empty
// alternative ({}) makes security optional: nil. Alternatives with a
// scheme other than an apiKey in a header or the query or HTTP bearer
// (OAuth 2, cookies, basic) are left out, since they cannot be checked
// here; nil when none is left.
func operationSecurity(doc *openapi3.T, op *openapi3.Operation) [][]toolset.Credential {
	reqs := doc.Security
	if op.Security != nil {
		reqs = *op.Security
	}
	if len(reqs) == 0 || doc.Components == nil {
		return nil
	}
	var out [][]toolset.Credential
	for _, req := range reqs {
		if len(req) == 0 {
			return nil // anonymous access is one of the alternatives
		}
		var alt []toolset.Credential
		for _, name := range slices.Sorted(maps.Keys(req)) {
			sr := doc.Components.SecuritySchemes[name]
			if sr == nil || sr.Value == nil {
				alt = nil
				break
			}
			s := sr.Value
			switch {
			case strings.EqualFold(s.Type, "apiKey") && (strings.EqualFold(s.In, "header") || strings.EqualFold(s.In, "query")) && s.Name != "":
				alt = append(alt, toolset.Credential{Scheme: name, Type: toolset.CredentialAPIKey, In: strings.ToLower(s.In), Name: s.Name})
			case strings.EqualFold(s.Type, "http") && strings.EqualFold(s.Scheme, "bearer"):
				alt = append(alt, toolset.Credential{Scheme: name, Type: toolset.CredentialBearer})
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
