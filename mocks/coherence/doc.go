// Package coherence holds the tests that the built-in stand-ins, called through the engine, do what their documentation says of every parameter and never contradict one another: a metamorphic table over the whole catalog, cross-answer properties along every dependency chain, and the reviewed contradictions as regression tests.
package coherence
