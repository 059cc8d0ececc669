// Package docsnippets holds the tests of README.md and docs/*.md: every Go snippet compiles, so that code a reader pastes builds, and every local link resolves.
package docsnippets
