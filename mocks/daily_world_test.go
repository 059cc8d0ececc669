package mocks

import (
	"io/fs"

	"github.com/understudy/understudy/fixtures"
)

// loadDailyWorld loads the built-in world through the real loader.
func loadDailyWorld() (*World, error) {
	sub, err := fs.Sub(fixtures.FS, "world")
	if err != nil {
		return nil, err
	}
	return LoadWorld(sub)
}
