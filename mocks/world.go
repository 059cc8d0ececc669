package mocks

import (
	"fmt"
	"io/fs"
	"sort"
	"sync"
)

// World is the consistent world every stand-in draws from, loaded from the
// fixtures/world file system. The core part (cities, countries, currencies,
// languages) lives in fields; each group of stand-ins registers its own part
// (hotels, news, images, ...) with registerPart and reads it with part.
type World struct {
	fsys fs.FS

	mu    sync.Mutex
	parts map[string]any
}

// partLoaders are the loaders of world parts, by name, registered in init.
var partLoaders = map[string]func(fsys fs.FS, w *World) (any, error){}

// registerPart adds the loader of a world part. load reads from the world's
// file system (rooted at fixtures/world) and may use the core world.
func registerPart(name string, load func(fsys fs.FS, w *World) (any, error)) {
	if _, dup := partLoaders[name]; dup {
		panic(fmt.Sprintf("mocks: world part %q registered twice", name))
	}
	partLoaders[name] = load
}

// loadParts loads every registered part, in name order, failing on the first error.
func (w *World) loadParts() error {
	names := make([]string, 0, len(partLoaders))
	for n := range partLoaders {
		names = append(names, n)
	}
	sort.Strings(names)
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.parts == nil {
		w.parts = map[string]any{}
	}
	for _, n := range names {
		v, err := partLoaders[n](w.fsys, w)
		if err != nil {
			return fmt.Errorf("world part %s: %w", n, err)
		}
		w.parts[n] = v
	}
	return nil
}

// part returns a loaded world part. Parts are loaded when the world is, so
// a missing part is a programming error.
func part[T any](w *World, name string) T {
	w.mu.Lock()
	v, ok := w.parts[name]
	w.mu.Unlock()
	if !ok {
		panic(fmt.Sprintf("mocks: world part %q not loaded", name))
	}
	return v.(T)
}
