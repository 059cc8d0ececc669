// Package imagegen draws the image catalog and web-page screenshots deterministically, with a built-in bitmap font.
package imagegen

//go:generate go test -run TestFixtures -update .
