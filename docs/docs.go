// Package docs embeds the documentation the binaries serve themselves: the problem pages that every problem's type points to.
package docs

import _ "embed"

// Problems is problems.md: a "#### problem-NAME" section per problem type.
//
//go:embed problems.md
var Problems []byte
