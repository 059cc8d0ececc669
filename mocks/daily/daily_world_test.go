package daily

import (
	"io/fs"

	"github.com/understudy/understudy/fixtures"

	"github.com/understudy/understudy/mocks/world"
)

// loadDailyWorld loads the built-in world through the real loader.
func LoadDailyWorld() (*world.World, error) {
	sub, err := fs.Sub(fixtures.FS, "world")
	if err != nil {
		return nil, err
	}
	return world.LoadWorld(sub)
}
