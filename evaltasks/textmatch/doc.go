// Package textmatch matches the text of an agent's reply against expected facts, key points and tool data by meaning.
package textmatch
