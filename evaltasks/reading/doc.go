// Package reading parses an answer once into what it says — the values it states, the questions it asks, the steps it plans — for every scorer to share.
package reading
