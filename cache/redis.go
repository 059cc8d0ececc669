package cache

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/understudy/understudy/internal/clock"
)

// RedisOptions configures a RedisStore.
type RedisOptions struct {
	// Prefix starts every Redis key the store uses (default "understudy:"),
	// so that several sandboxes can share one Redis database.
	Prefix string
	// Strict treats a checksum mismatch as corruption, even with TrustEdits.
	Strict bool
	// TrustEdits serves an entry whose checksum does not match (changed
	// in Redis after it was recorded) as edited, with an *EditedWarning.
	// Without it such an entry is not served: Get reports it as a
	// *CorruptError (and warns), as a file would be refused with Strict.
	// Entries in Redis are not edited by hand the way files are; one that
	// changed there was changed by something else.
	TrustEdits bool
	// Warn receives, once per entry and content, an entry in Redis whose
	// checksum does not match (*EditedWarning, or the *CorruptError Get
	// returns for it). Nil drops them.
	Warn func(error)
	// Clock stamps recorded_at when an Entry has none (default: frozen at
	// clock.Default, as for a directory store).
	Clock clock.Clock
	// LockTTL is how long a fill lock lives unless its holder, still
	// working, renews it (default 10 s): the longest a crashed replica can
	// hold up the other replicas' misses of one key.
	LockTTL time.Duration
	// Poll is the longest pause between two looks at a key another replica
	// is filling (default 25 ms); the first looks come sooner.
	Poll time.Duration
}

// RedisStore keeps recordings in Redis, shared by every tool server that
// uses the same server: the same entries as a directory store, under the
// same keys, each stored as the same JSON document an entry file holds, so
// the checksum and every check of Get travel with it.
//
// Redis keys (with the prefix):
//
//	rec:<hash>    the entry document
//	recs          sorted set of the hashes stored (all at score 0: read in hash order)
//	lock:<hash>   the fill lock of a key being fetched (LockKey)
//
// An entry and its index member are written in one MULTI/EXEC transaction:
// no reader ever sees one without the other. It is safe for concurrent use.
type RedisStore struct {
	rdb    redis.UniversalClient
	opts   RedisOptions
	warned sync.Map // checksum-mismatched documents already warned about (their hash and checksum)
}

var _ Reader = (*RedisStore)(nil)

// NewRedisStore returns a store over rdb; it does not contact the server.
func NewRedisStore(rdb redis.UniversalClient, opts RedisOptions) *RedisStore {
	if opts.Prefix == "" {
		opts.Prefix = "understudy:"
	}
	if opts.Clock == nil {
		opts.Clock = clock.Frozen()
	}
	if opts.LockTTL <= 0 {
		opts.LockTTL = 10 * time.Second
	}
	if opts.Poll <= 0 {
		opts.Poll = 25 * time.Millisecond
	}
	return &RedisStore{rdb: rdb, opts: opts}
}

// UnavailableError reports a shared store that did not answer (Redis down,
// unreachable or timing out). Nothing was read or written by the failed
// operation; the client reconnects by itself on the next one.
type UnavailableError struct {
	Op  string // "get", "put", "walk", "lock"
	Err error
}

func (e *UnavailableError) Error() string {
	return fmt.Sprintf("cache: shared store unavailable (%s): %v", e.Op, e.Err)
}

func (e *UnavailableError) Unwrap() error { return e.Err }

func (s *RedisStore) entryKey(hash string) string { return s.opts.Prefix + "rec:" + hash }
func (s *RedisStore) indexKey() string            { return s.opts.Prefix + "recs" }
func (s *RedisStore) lockKey(hash string) string  { return s.opts.Prefix + "lock:" + hash }

// place names an entry in errors the way a path names an entry file.
func (s *RedisStore) place(hash string) string { return "redis:" + s.entryKey(hash) }

// Get returns the entry recorded for key.
func (s *RedisStore) Get(key Key) (Entry, bool, error) {
	return s.GetContext(context.Background(), key)
}

// GetContext is Get with a context.
func (s *RedisStore) GetContext(ctx context.Context, key Key) (Entry, bool, error) {
	if !validHash(key.hash) {
		return Entry{}, false, &InvalidKeyError{Hash: key.hash}
	}
	_, e, ok, err := s.GetDocument(ctx, key)
	return e, ok, err
}

// GetDocument is GetContext with the entry's document as stored.
func (s *RedisStore) GetDocument(ctx context.Context, key Key) (doc []byte, e Entry, ok bool, err error) {
	if !validHash(key.hash) {
		return nil, Entry{}, false, &InvalidKeyError{Hash: key.hash}
	}
	data, err := s.rdb.Get(ctx, s.entryKey(key.hash)).Bytes()
	switch {
	case errors.Is(err, redis.Nil):
		return nil, Entry{}, false, nil
	case err != nil:
		return nil, Entry{}, false, s.failed("get", key.hash, err)
	}
	e, err = s.decode(key.hash, data)
	if err != nil {
		return nil, Entry{}, false, err
	}
	return data, e, true, nil
}

// decode reads an entry document of Redis, applying the checksum policy:
// a mismatch is served as edited only with TrustEdits.
func (s *RedisStore) decode(hash string, data []byte) (Entry, error) {
	e, err := decodeEntry(s.place(hash), data, hash, s.opts.Strict)
	if err != nil || !e.Edited {
		return e, err
	}
	var warning error = &EditedWarning{Path: s.place(hash)}
	if !s.opts.TrustEdits {
		warning = &CorruptError{Path: s.place(hash), Reason: "checksum mismatch: the entry was changed in Redis after it was recorded; it is not served (toolserver -trust-edits serves it as edited)"}
		err = warning
	}
	if s.opts.Warn != nil {
		// Once per document: a key read on every call would repeat it.
		var sum struct {
			Checksum string `json:"checksum"`
		}
		_ = json.Unmarshal(data, &sum)
		if _, seen := s.warned.LoadOrStore(hash+" "+sum.Checksum+" "+strconv.Itoa(len(data)), true); !seen {
			s.opts.Warn(warning)
		}
	}
	if err != nil {
		return Entry{}, err
	}
	return e, nil
}

// failed classifies a Redis error: an error the server answered with (a key
// of the wrong type, say) is about the data; anything else (a refused
// connection, a timeout) means the server is not there.
func (s *RedisStore) failed(op, hash string, err error) error {
	var rerr redis.Error
	if errors.As(err, &rerr) && ctxErr(err) == nil {
		return &CorruptError{Path: s.place(hash), Reason: "unreadable", Err: err}
	}
	if cerr := ctxErr(err); cerr != nil {
		return cerr
	}
	return &UnavailableError{Op: op, Err: err}
}

// ctxErr returns err when it is the caller's context ending, not Redis.
func ctxErr(err error) error {
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	return nil
}

// Put records e under key, replacing any previous entry, in one
// transaction with its index member.
func (s *RedisStore) Put(ctx context.Context, key Key, e Entry) error {
	e, err := prepare(key, e, s.opts.Clock)
	if err != nil {
		return err
	}
	data, err := encodeEntry(key, &e)
	if err != nil {
		return fmt.Errorf("cache: encode %s: %w", key, err)
	}
	_, err = s.rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
		p.Set(ctx, s.entryKey(key.hash), data, 0)
		p.ZAdd(ctx, s.indexKey(), redis.Z{Member: key.hash})
		return nil
	})
	if err != nil {
		if cerr := ctxErr(err); cerr != nil {
			return cerr
		}
		return &UnavailableError{Op: "put", Err: err}
	}
	return nil
}

// PutDocument stores doc, an entry's document as another store holds it,
// under key, unchanged (its checksum is kept), with its index member in
// one step. With ifAbsent an entry Redis already has is left alone, and
// stored reports whether doc was written. doc must decode as an entry of
// key (a mismatched checksum is allowed).
func (s *RedisStore) PutDocument(ctx context.Context, key Key, doc []byte, ifAbsent bool) (stored bool, err error) {
	if !validHash(key.hash) {
		return false, &InvalidKeyError{Hash: key.hash}
	}
	if _, err := decodeEntry(s.place(key.hash), doc, key.hash, false); err != nil {
		return false, err
	}
	if !ifAbsent {
		_, err = s.rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
			p.Set(ctx, s.entryKey(key.hash), doc, 0)
			p.ZAdd(ctx, s.indexKey(), redis.Z{Member: key.hash})
			return nil
		})
		return err == nil, s.writeErr(err)
	}
	n, err := putIfAbsentScript.Run(ctx, s.rdb, []string{s.entryKey(key.hash), s.indexKey()}, doc, key.hash).Int()
	return n == 1, s.writeErr(err)
}

// putIfAbsentScript writes an entry and its index member unless the entry
// is there already.
var putIfAbsentScript = redis.NewScript(`if redis.call("SET", KEYS[1], ARGV[1], "NX") then redis.call("ZADD", KEYS[2], 0, ARGV[2]) return 1 end return 0`)

func (s *RedisStore) writeErr(err error) error {
	if err == nil {
		return nil
	}
	if cerr := ctxErr(err); cerr != nil {
		return cerr
	}
	return &UnavailableError{Op: "put", Err: err}
}

// Missing returns the hashes, of those given, that Redis has no entry for.
func (s *RedisStore) Missing(ctx context.Context, hashes []string) ([]string, error) {
	var missing []string
	for start := 0; start < len(hashes); start += int(walkPage) {
		page := hashes[start:min(start+int(walkPage), len(hashes))]
		cmds := make([]*redis.IntCmd, len(page))
		_, err := s.rdb.Pipelined(ctx, func(p redis.Pipeliner) error {
			for i, h := range page {
				cmds[i] = p.Exists(ctx, s.entryKey(h))
			}
			return nil
		})
		if err != nil {
			return nil, s.walkErr(err)
		}
		for i, c := range cmds {
			if c.Val() == 0 {
				missing = append(missing, page[i])
			}
		}
	}
	return missing, nil
}

// Len is the number of entries indexed.
func (s *RedisStore) Len(ctx context.Context) (int, error) {
	n, err := s.rdb.ZCard(ctx, s.indexKey()).Result()
	if err != nil {
		return 0, &UnavailableError{Op: "walk", Err: err}
	}
	return int(n), nil
}

// walkPage is how many entries Walk reads per round trip (a variable so
// that tests can cross pages with a few entries).
var walkPage int64 = 256

// Walk calls fn for every valid entry in hash order. Corrupt entries are
// handed to warn (nil drops them) and skipped, as Store.Walk does; an entry
// whose checksum does not match is walked, Edited, whatever TrustEdits
// says (an export shows it as it is).
func (s *RedisStore) Walk(ctx context.Context, warn func(error), fn func(Key, Entry) error) error {
	return s.WalkDocuments(ctx, warn, func(k Key, e Entry, _ []byte) error { return fn(k, e) })
}

// WalkDocuments is Walk with each entry's document as stored.
func (s *RedisStore) WalkDocuments(ctx context.Context, warn func(error), fn func(Key, Entry, []byte) error) error {
	return s.walkAll(ctx, func(h string, e Entry, doc []byte, err error) error {
		if err != nil {
			if warn != nil {
				warn(err)
			}
			return nil
		}
		return fn(Key{hash: h, tool: e.Tool, api: e.API, args: string(e.Arguments)}, e, doc)
	})
}

// walkAll calls fn for every document indexed, in hash order, with the
// decoded entry or the reason it cannot be used.
func (s *RedisStore) walkAll(ctx context.Context, fn func(hash string, e Entry, doc []byte, err error) error) error {
	last := "-"
	for {
		hashes, err := s.rdb.ZRangeArgs(ctx, redis.ZRangeArgs{Key: s.indexKey(), Start: last, Stop: "+", ByLex: true, Count: walkPage}).Result()
		if err != nil {
			return s.walkErr(err)
		}
		if len(hashes) == 0 {
			return nil
		}
		keys := make([]string, len(hashes))
		for i, h := range hashes {
			keys[i] = s.entryKey(h)
		}
		vals, err := s.rdb.MGet(ctx, keys...).Result()
		if err != nil {
			return s.walkErr(err)
		}
		for i, h := range hashes {
			str, ok := vals[i].(string)
			if !ok || !validHash(h) {
				continue // indexed but removed since, or not ours
			}
			e, err := decodeEntry(s.place(h), []byte(str), h, s.opts.Strict)
			if err := fn(h, e, []byte(str), err); err != nil {
				return err
			}
		}
		last = "(" + hashes[len(hashes)-1]
	}
}

func (s *RedisStore) walkErr(err error) error {
	if cerr := ctxErr(err); cerr != nil {
		return cerr
	}
	return &UnavailableError{Op: "walk", Err: err}
}

// Copied counts what a copy between stores did.
type Copied struct {
	Entries int `json:"entries"`
	Skipped int `json:"skipped"` // entries that cannot be read, left behind
	// Unreadable names each skipped entry and why it cannot be read.
	Unreadable []Problem `json:"unreadable,omitempty"`
	// Later lists the entries of a format this version does not read,
	// copied byte for byte (a later version reads them).
	Later []string `json:"later_format,omitempty"`
	// Edited lists the entries copied whose checksum does not match (they
	// were changed after they were recorded), copied as they are: the
	// checksum stays the one stored, so that Verify reports them.
	Edited []string `json:"edited,omitempty"`
}

// copyOne copies one entry walked from a store (err is why it cannot be
// read, or nil) with put for an entry this version reads and putLater for
// one of a later format, counting it in c.
func (c *Copied) copyOne(hash string, e Entry, err error, put, putLater func() error) error {
	var ce *CorruptError
	switch {
	case err == nil:
		if err := put(); err != nil {
			return err
		}
		if e.Edited {
			c.Edited = append(c.Edited, entryPath(hash))
		}
		c.Entries++
	case errors.As(err, &ce) && ce.Format != "" && hash != "":
		if err := putLater(); err != nil {
			return err
		}
		c.Later = append(c.Later, entryPath(hash))
	default:
		c.Skipped++
		p := Problem{Path: err.Error()}
		if errors.As(err, &ce) {
			p = Problem{Path: ce.Path, Reason: ce.Reason}
			if ce.Err != nil {
				p.Reason += ": " + ce.Err.Error()
			}
		}
		c.Unreadable = append(c.Unreadable, p)
	}
	return nil
}

// ExportRedis writes every entry of src into the directory store dst, so
// that recordings gathered by many replicas become files for CI. Each is
// written as Redis holds it: an entry changed in Redis after it was
// recorded keeps its stored checksum (a fresh one would pass it off as
// recorded) and is listed in Copied.Edited; an entry of a later format is
// written byte for byte (Copied.Later); an entry that cannot be read is
// named in Copied.Unreadable, never dropped silently.
func ExportRedis(ctx context.Context, src *RedisStore, dst *Store) (Copied, error) {
	var c Copied
	err := src.walkAll(ctx, func(h string, e Entry, doc []byte, err error) error {
		return c.copyOne(h, e, err,
			func() error { return dst.PutDocument(Key{hash: h}, doc) },
			func() error { return dst.putLater(h, doc) })
	})
	return c, err
}

// ImportRedis writes every entry of the directory store src into dst, as
// the files hold them (a hand-edited entry keeps its checksum, and is
// listed in Copied.Edited), with entries of a later format byte for byte
// and the unreadable ones named, as ExportRedis does.
func ImportRedis(ctx context.Context, src *Store, dst *RedisStore) (Copied, error) {
	var c Copied
	err := src.eachDoc(func(p, h string, e Entry, doc []byte, err error) error {
		return c.copyOne(h, e, err,
			func() error { _, err := dst.PutDocument(ctx, Key{hash: h}, doc, false); return err },
			func() error { return dst.putDocument(ctx, h, doc) })
	})
	return c, err
}

// putDocument writes doc and its index member unchecked: for an entry of
// a later format, which this version cannot decode but must keep.
func (s *RedisStore) putDocument(ctx context.Context, hash string, doc []byte) error {
	_, err := s.rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
		p.Set(ctx, s.entryKey(hash), doc, 0)
		p.ZAdd(ctx, s.indexKey(), redis.Z{Member: hash})
		return nil
	})
	return s.writeErr(err)
}

// unlockScript deletes a lock only when it still holds the caller's token,
// so that a holder whose lock expired cannot release the next holder's.
var unlockScript = redis.NewScript(`if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("DEL", KEYS[1]) end return 0`)

// renewScript extends a lock the caller still holds.
var renewScript = redis.NewScript(`if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("PEXPIRE", KEYS[1], ARGV[2]) end return 0`)

// LockKey lets one replica at a time fetch a missing key from the real
// API. It returns either the entry (found: another replica recorded it,
// nothing is held) or a held lock that unlock releases. The holder renews
// the lock while it works, so a slow upstream keeps it; a crashed holder
// stops renewing, and its lock expires within LockTTL. A waiter looks
// again after 1 ms, doubling to Poll.
func (s *RedisStore) LockKey(ctx context.Context, key Key) (unlock func(), e Entry, found bool, err error) {
	if !validHash(key.hash) {
		return nil, Entry{}, false, &InvalidKeyError{Hash: key.hash}
	}
	var tok [16]byte
	_, _ = rand.Read(tok[:])
	token := hex.EncodeToString(tok[:])
	lk := s.lockKey(key.hash)
	wait := time.Millisecond
	for {
		got, err := s.rdb.SetArgs(ctx, lk, token, redis.SetArgs{Mode: "NX", TTL: s.opts.LockTTL}).Result()
		if err != nil && !errors.Is(err, redis.Nil) {
			return nil, Entry{}, false, s.failed("lock", key.hash, err)
		}
		held := got == "OK"
		// Held or not, the key may have been recorded meanwhile (the last
		// holder records before it unlocks).
		e, ok, gerr := s.GetContext(ctx, key)
		var ue *UnavailableError
		gone := errors.As(gerr, &ue) || ctxErr(gerr) != nil
		if held && (ok || gone) {
			_ = unlockScript.Run(context.WithoutCancel(ctx), s.rdb, []string{lk}, token).Err()
		}
		if ok {
			return nil, e, true, nil
		}
		if gone {
			return nil, Entry{}, false, gerr
		}
		// A corrupt entry (or one not served for its checksum) is
		// recorded over by the holder.
		if held {
			return s.holding(lk, token), Entry{}, false, nil
		}
		select {
		case <-ctx.Done():
			return nil, Entry{}, false, ctx.Err()
		case <-time.After(wait):
		}
		wait = min(wait*2, s.opts.Poll)
	}
}

// holding renews the lock lk every third of its lifetime until the
// returned function releases it.
func (s *RedisStore) holding(lk, token string) func() {
	stop := make(chan struct{})
	done := make(chan struct{})
	ttl := s.opts.LockTTL
	go func() {
		defer close(done)
		t := time.NewTicker(ttl / 3)
		defer t.Stop()
		for {
			select {
			case <-stop:
				return
			case <-t.C:
				_ = renewScript.Run(context.Background(), s.rdb, []string{lk}, token, ttl.Milliseconds()).Err()
			}
		}
	}()
	return func() {
		close(stop)
		<-done
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		_ = unlockScript.Run(ctx, s.rdb, []string{lk}, token).Err()
	}
}

// Ping reports whether the Redis server answers.
func (s *RedisStore) Ping(ctx context.Context) error {
	if err := s.rdb.Ping(ctx).Err(); err != nil {
		return &UnavailableError{Op: "ping", Err: err}
	}
	return nil
}
