package main

import (
	"os"
	"runtime"
	"runtime/debug"
)

// gcHeadroom is the garbage the collector lets calls make between
// collections once a large catalog is loaded.
const gcHeadroom = 64 << 20

// sizeGC fits the collector to a large catalog once it is loaded. The
// catalog is a long-lived heap that never changes; at Go's default pacing
// (GOGC=100) the collector lets garbage grow to the size of everything
// live before collecting, so on StableToolBench's 44,692 APIs (about 180 MB
// live) the resident size wandered between 350 and 440 MB as calls came,
// the start-up's garbage included. sizeGC collects that garbage and returns
// it to the system, then sets the collector's target to the live heap plus
// gcHeadroom (at least 25 %), so the resident size stays where it is.
// Small catalogs keep the default, and so does a GOGC the user sets.
func sizeGC() {
	if os.Getenv("GOGC") != "" {
		return
	}
	var m runtime.MemStats
	runtime.ReadMemStats(&m) // live and not yet collected: an upper bound
	if m.HeapAlloc < 2*gcHeadroom {
		return
	}
	debug.FreeOSMemory()
	runtime.ReadMemStats(&m)
	if m.HeapAlloc < 2*gcHeadroom {
		return
	}
	debug.SetGCPercent(max(25, int(100*gcHeadroom/m.HeapAlloc)))
}
