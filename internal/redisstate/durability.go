package redisstate

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/understudy/understudy/cache"
)

// DefaultWatch is how often a replica asks Redis whether it restarted.
const DefaultWatch = 2 * time.Second

// Persistence is what a Redis server keeps of its data across a restart,
// read from its configuration when the replica connects (and again after
// the server restarted).
type Persistence struct {
	// Known is false when the server could not be asked (it was down).
	Known bool `json:"-"`
	// Save is the RDB snapshot schedule ("3600 1 300 100 60 10000"): ""
	// for none, "unknown" when CONFIG is disabled on the server.
	Save string `json:"rdb"`
	// AppendOnly is the AOF's fsync policy ("always", "everysec", "no")
	// when the AOF is on, "off" when it is off.
	AppendOnly string `json:"aof"`
	// Note says how the settings were read when not through CONFIG.
	Note string `json:"note,omitempty"`
}

// Durable reports whether the server writes its data to disk at all (an
// AOF, or RDB snapshots). A server that does not keeps recordings only in
// memory: a restart loses them.
func (p Persistence) Durable() bool {
	return p.AppendOnly != "off" && p.AppendOnly != "" || p.Save != "" && p.Save != "unknown"
}

// readPersistence asks the server for its persistence settings: CONFIG
// GET save, appendonly and appendfsync, or, where CONFIG is disabled (a
// managed server, a renamed command), INFO persistence, which tells the
// AOF but not the snapshot schedule.
func readPersistence(ctx context.Context, rdb *redis.Client) (Persistence, error) {
	cfg := map[string]string{}
	var err error
	for _, name := range []string{"appendonly", "appendfsync", "save"} {
		var m map[string]string
		if m, err = rdb.ConfigGet(ctx, name).Result(); err != nil {
			break
		}
		for k, v := range m {
			cfg[k] = v
		}
	}
	if err == nil && cfg["appendonly"] != "" {
		p := Persistence{Known: true, Save: strings.TrimSpace(cfg["save"]), AppendOnly: "off"}
		if cfg["appendonly"] == "yes" {
			p.AppendOnly = cfg["appendfsync"]
		}
		return p, nil
	}
	var rerr redis.Error
	if err != nil && !errors.As(err, &rerr) {
		return Persistence{}, err // the server did not answer
	}
	info, ierr := rdb.Info(ctx, "persistence").Result()
	if ierr != nil {
		return Persistence{}, ierr
	}
	p := Persistence{Known: true, Save: "unknown", AppendOnly: "off", Note: "CONFIG is disabled on this server: its RDB snapshot schedule cannot be read"}
	if infoField(info, "aof_enabled") == "1" {
		p.AppendOnly = "on"
	}
	return p, nil
}

// infoField is one "name:value" line of an INFO answer.
func infoField(info, name string) string {
	for line := range strings.Lines(info) {
		if v, ok := strings.CutPrefix(strings.TrimSpace(line), name+":"); ok {
			return v
		}
	}
	return ""
}

// durability is what /healthz and the start-up log say of where recordings
// live, given the server's persistence.
func (s *Shared) durability(p Persistence) (warning string) {
	mirror := "this replica keeps no copy (give it -cache DIR to mirror its recordings there)"
	if s.opts.Local != nil && s.opts.Mirror {
		mirror = "this replica mirrors its recordings to " + s.opts.Local.Dir() + " and pushes them back when Redis restarts"
	}
	switch {
	case !p.Known:
		return ""
	case p.Save == "unknown" && p.AppendOnly == "off":
		return "cannot tell whether redis-server keeps recordings across a restart (CONFIG is disabled; the AOF is off); " + mirror
	case !p.Durable():
		return "redis-server persists nothing (no RDB snapshots, no AOF): recordings live only in its memory and a restart loses them; " + mirror
	}
	return ""
}

// watch asks the server every Watch whether it restarted (its run_id
// changed) and, when it did or when it is back after being down, reads its
// persistence again and pushes the local store's recordings it lacks.
func (s *Shared) watch() {
	defer close(s.watchDone)
	t := time.NewTicker(s.opts.Watch)
	defer t.Stop()
	for {
		s.look()
		select {
		case <-s.watchStop:
			return
		case <-t.C:
		case <-s.kick:
		}
	}
}

// kickWatch makes the watcher look now (Redis is back).
func (s *Shared) kickWatch() {
	select {
	case s.kick <- struct{}{}:
	default:
	}
}

// look is one round of the watcher.
func (s *Shared) look() {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	info, err := s.rdb.Info(ctx, "server").Result()
	if err != nil {
		return // down (or INFO refused): the calls say so, nothing to push to
	}
	runID := infoField(info, "run_id")
	s.mu.Lock()
	restarted := runID != s.runID || runID == ""
	push := restarted || s.pushDue
	s.mu.Unlock()
	if restarted {
		p, err := readPersistence(ctx, s.rdb)
		if err != nil {
			return
		}
		s.mu.Lock()
		first := s.runID == ""
		s.persistence, s.runID = p, runID
		s.mu.Unlock()
		if w := s.durability(p); w != "" {
			s.log.Warn("redis: "+w, "redis", s.where, "rdb", p.Save, "aof", p.AppendOnly)
		}
		if !first {
			s.log.Warn("redis restarted", "redis", s.where, "run_id", runID)
		}
	}
	if push {
		s.mu.Lock()
		s.pushDue = false
		s.mu.Unlock()
		n, skipped, err := s.push(ctx)
		switch {
		case err != nil:
			s.mu.Lock()
			s.pushDue = true // try again next round
			s.mu.Unlock()
			s.log.Error("redis: pushing local recordings failed; trying again", "redis", s.where, "err", err)
		case n > 0 || skipped > 0:
			s.log.Info("redis: pushed recordings Redis lacked from the local folder", "redis", s.where, "pushed", n, "edited_left_local", skipped)
		}
		s.pushed.Add(int64(n))
	}
}

// pushPage is how many local entries push checks against Redis at once.
const pushPage = 256

// push writes the local store's entries that Redis lacks to Redis, as the
// files hold them, and only where Redis still lacks them (another replica
// may push the same). Entries edited by hand stay local: Redis would not
// serve them (see cache.RedisOptions.TrustEdits) unless told to trust them.
func (s *Shared) push(ctx context.Context) (pushed, editedLeft int, err error) {
	local := s.opts.Local
	if local == nil {
		return 0, 0, nil
	}
	type doc struct {
		key  cache.Key
		data []byte
	}
	var page []doc
	flush := func() error {
		hashes := make([]string, len(page))
		for i, d := range page {
			hashes[i] = d.key.Hash()
		}
		missing, err := s.Store.Missing(ctx, hashes)
		if err != nil {
			return err
		}
		want := map[string]bool{}
		for _, h := range missing {
			want[h] = true
		}
		for _, d := range page {
			if !want[d.key.Hash()] {
				continue
			}
			stored, err := s.Store.PutDocument(ctx, d.key, d.data, true)
			if err != nil {
				return err
			}
			if stored {
				pushed++
			}
		}
		page = page[:0]
		return nil
	}
	err = local.WalkDocuments(func(k cache.Key, e cache.Entry, data []byte) error {
		if e.Edited && !s.opts.TrustEdits {
			editedLeft++
			return nil
		}
		page = append(page, doc{k, data})
		if len(page) == pushPage {
			return flush()
		}
		return nil
	})
	if err == nil && len(page) > 0 {
		err = flush()
	}
	if err != nil {
		return pushed, editedLeft, fmt.Errorf("pushing %s to redis: %w", local.Dir(), err)
	}
	return pushed, editedLeft, nil
}
