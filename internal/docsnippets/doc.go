// Package docsnippets holds the test that compiles every Go snippet of README.md and docs/*.md, so that code a reader pastes builds.
package docsnippets
