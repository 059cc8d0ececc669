package retrieve

import "context"

// NameSelfAssist names Self-Assist's retriever with a model in the loop
// (agent/selfassist); it is built by its own package, not by New.
const NameSelfAssist = "self-assist"

// ContextRetriever is a retriever that asks a model: it honours the
// caller's context and fails with an error rather than return a ranking
// it did not make. Callers use RetrieveContext when a retriever has it.
type ContextRetriever interface {
	Retriever
	RetrieveContext(ctx context.Context, query string, k int) ([]Hit, error)
}

// RetrieveWith ranks with r, through RetrieveContext when r has it.
func RetrieveWith(ctx context.Context, r Retriever, query string, k int) ([]Hit, error) {
	if cr, ok := r.(ContextRetriever); ok {
		return cr.RetrieveContext(ctx, query, k)
	}
	return r.Retrieve(query, k), nil
}
