//go:build !unix

package cache

import "os"

// Without flock, cross-process safety rests on rename being atomic; the index
// may then need the repair that Open performs.
func flock(f *os.File, exclusive, wait bool) (bool, error) { return true, nil }

func funlock(f *os.File) error { return nil }
