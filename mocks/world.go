package mocks

// World is the consistent world every stand-in draws from, loaded from
// fixtures/world.
type World struct{}
