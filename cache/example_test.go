package cache_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"

	"github.com/understudy/understudy/cache"
)

// An engine keys a validated call, looks it up, and records a real answer
// on a miss unless it looks like an error.
func Example() {
	dir, _ := os.MkdirTemp("", "recordings")
	defer os.RemoveAll(dir)
	store, err := cache.Open(dir, cache.Options{})
	if err != nil {
		panic(err)
	}
	defer store.Close()
	c, _ := cache.NewCache(cache.CacheOptions{Store: store})
	ctx := context.Background()

	key := cache.KeyOf("weatherapi_com", "realtime_weather_api", map[string]any{"q": "Paris"})
	if _, ok, _ := c.Get(ctx, key); !ok {
		body := []byte(`{"current":{"temp_c":18.5}}`) // from the real API
		if reason, bad := cache.LooksLikeUpstreamError(body); bad {
			fmt.Println("not recorded:", reason)
		} else if err := c.Put(ctx, key, cache.Entry{Response: json.RawMessage(body), Source: "remote"}); err != nil {
			fmt.Println(err)
		}
	}
	e, ok, _ := c.Get(ctx, key)
	fmt.Println(ok, e.Status, string(e.Response))
	fmt.Println(key.Args())
	// Output:
	// true 200 {"current":{"temp_c":18.5}}
	// {"q":"Paris"}
}
