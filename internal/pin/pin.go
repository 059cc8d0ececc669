// Package pin keeps the chosen dependencies in go.mod while the packages that use them are written.
package pin

import (
	_ "github.com/brianvoe/gofakeit/v7"
	_ "github.com/getkin/kin-openapi/openapi3filter"
	_ "github.com/hashicorp/golang-lru/v2"
	_ "github.com/modelcontextprotocol/go-sdk/mcp"
	_ "github.com/stretchr/testify/require"
	_ "go.starlark.net/starlark"
	_ "golang.org/x/time/rate"
)
