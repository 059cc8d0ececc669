package cache

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/understudy/understudy/internal/atomicfile"
	"github.com/understudy/understudy/internal/clock"
)

// Names inside a store directory. Entries live in two-hex-digit shard
// folders; everything else at the top starts with "." or "index".
const (
	indexName     = "index.jsonl"
	indexLockName = ".index.lock"
	openLockName  = ".lock"
	tempPrefix    = atomicfile.TempPrefix
)

// entryPerm is the mode of the files the store writes (entries, the
// rewritten index, exports): readable by their owner only, as a temporary
// file is created.
const entryPerm = 0o600

// Options configures a Store.
type Options struct {
	// Warn receives problems that do not stop the store: corrupt entries
	// (*CorruptError), hand-edited entries (*EditedWarning), a rewritten
	// index (*IndexRepairedWarning), a directory opened read-only. Nil
	// drops them; ScanReport keeps them too.
	Warn func(error)
	// Clock stamps recorded_at when an Entry has none (default: frozen at
	// clock.Default, so recordings are byte-reproducible).
	Clock clock.Clock
	// ReadOnly opens an existing directory without ever writing to it.
	ReadOnly bool
	// Strict treats a checksum mismatch as corruption instead of a hand edit.
	Strict bool
}

// Reader looks entries up by key. Store, Layered and Cache's layers
// implement it. A missing entry is (Entry{}, false, nil); a corrupt one is
// (Entry{}, false, *CorruptError).
type Reader interface {
	Get(key Key) (Entry, bool, error)
}

var _ Reader = (*Store)(nil)

// Store is a directory (or read-only fs.FS) of recorded answers, one JSON
// file per key at <hash[:2]>/<hash>.json, with index.jsonl beside them.
// It is safe for concurrent use by many goroutines and, for a directory,
// by many processes.
type Store struct {
	dir    string // "" for an fs.FS store
	fsys   fs.FS
	opts   Options
	roErr  error // non-nil: Put fails with this (wrapping ErrReadOnly)
	locks  [64]sync.Mutex
	idxMu  sync.Mutex
	openMu sync.Mutex
	open   *os.File // shared flock held while the store is open
	report ScanReport
	// verified is closed once report describes every entry: at once for
	// a store checked on open, after the background check otherwise.
	verified chan struct{}
	stopping atomic.Bool // Close asks the background check to stop
	// memIndex is a read-only store's index, built from its entries when
	// it was opened (set before verified is closed).
	memIndex []indexRecord
}

// ScanReport is what a scan of the store found.
type ScanReport struct {
	Entries     int            // valid entries
	Edited      []string       // paths of entries changed by hand (still used)
	Corrupt     []CorruptError // entries skipped
	TempRemoved int            // leftover temporary files deleted on open
	PerTool     map[string]int // valid entries per tool
}

// Open opens the store in dir, creating the directory if needed. A directory
// that exists but cannot be written is opened read-only: Get works and Put
// returns a *WriteError wrapping ErrReadOnly. A read-only store (that, or
// Options.ReadOnly) never writes anything to the directory: no lock file,
// no cleanup, no index repair; its index is built in memory. On open, leftover temporary
// files of crashed writers are removed (when no other process has the store
// open), and the index is read. When it names exactly the entry files
// present, Open returns without reading them and every entry is checked in
// the background (Report waits for that check); otherwise every entry is
// checked first and the index is rewritten to match them. Either way Get
// checks each entry it reads, so a corrupt entry is never served.
func Open(dir string, opts Options) (*Store, error) {
	if dir == "" {
		return nil, errors.New("cache: Open needs a directory")
	}
	if opts.Clock == nil {
		opts.Clock = clock.Frozen()
	}
	s := &Store{dir: dir, fsys: openDirFS(dir), opts: opts, verified: make(chan struct{})}
	if !opts.ReadOnly {
		if err := os.MkdirAll(dir, 0o755); err != nil && !isDir(dir) {
			return nil, fmt.Errorf("cache: create store directory: %w", err)
		}
	}
	if fi, err := os.Stat(dir); err != nil {
		return nil, fmt.Errorf("cache: open store: %w", err)
	} else if !fi.IsDir() {
		return nil, fmt.Errorf("cache: open store: %w", &fs.PathError{Op: "open", Path: dir, Err: errors.New("not a directory")})
	}
	if opts.ReadOnly {
		s.roErr = ErrReadOnly
	} else if f, err := os.OpenFile(filepath.Join(dir, openLockName), os.O_RDWR|os.O_CREATE, 0o644); err != nil {
		s.roErr = fmt.Errorf("%w: %v", ErrReadOnly, err)
		s.warn(fmt.Errorf("cache: store %s opened read-only: %w", dir, err))
	} else {
		s.open = f
		exclusive, err := flock(f, true, false)
		if err != nil {
			f.Close()
			return nil, fmt.Errorf("cache: lock store %s: %w", dir, err)
		}
		if exclusive {
			// No other process has the store open: any temporary file is a
			// leftover of a crashed writer.
			s.report.TempRemoved = s.removeTemps()
		}
		if _, err := flock(f, false, true); err != nil {
			f.Close()
			return nil, fmt.Errorf("cache: lock store %s: %w", dir, err)
		}
	}
	if s.roErr != nil {
		// A store that is only read is never written to, not even its
		// index: the index is built in memory from the entries.
		go func() {
			defer close(s.verified)
			report, recs := s.scan(true, true)
			s.setReport(report)
			s.memIndex = recs
		}()
		return s, nil
	}
	if s.openFast() {
		go func() {
			defer close(s.verified)
			s.verify()
		}()
		return s, nil
	}
	if err := s.checkIndex(); err != nil {
		s.warn(err)
	}
	close(s.verified)
	return s, nil
}

// openDirFS is how a store reads its directory; tests count the reads.
var openDirFS = os.DirFS

// setReport records a scan's report, keeping what Open counted before it.
func (s *Store) setReport(r ScanReport) {
	r.TempRemoved = s.report.TempRemoved
	s.report = r
}

// OpenFS opens a read-only store over fsys laid out like a store directory,
// for example the built-in recordings: fs.Sub(fixtures.FS, "recordings").
func OpenFS(fsys fs.FS, opts Options) (*Store, error) {
	if fsys == nil {
		return nil, errors.New("cache: OpenFS needs a file system")
	}
	s := &Store{fsys: fsys, opts: opts, roErr: ErrReadOnly, verified: make(chan struct{})}
	s.report, s.memIndex = s.scan(true, true)
	close(s.verified)
	return s, nil
}

// Close stops the background check, if still running, and releases the
// store's lock; the Store must not be used afterwards.
func (s *Store) Close() error {
	s.stopping.Store(true)
	<-s.verified
	s.openMu.Lock()
	defer s.openMu.Unlock()
	if s.open == nil {
		return nil
	}
	err := s.open.Close()
	s.open = nil
	return err
}

// Dir is the store's directory ("" for a store over an fs.FS).
func (s *Store) Dir() string { return s.dir }

// ReadOnly reports whether Put is refused.
func (s *Store) ReadOnly() bool { return s.roErr != nil }

// Report is the result of the check of every entry made when the store
// was opened; it waits for the check to end.
func (s *Store) Report() ScanReport {
	<-s.verified
	return s.report
}

// Len is the number of valid entries found when the store was opened; it
// waits for the check of every entry to end.
func (s *Store) Len() int { return s.Report().Entries }

// Get returns the entry recorded for key.
func (s *Store) Get(key Key) (Entry, bool, error) {
	if !validHash(key.hash) {
		return Entry{}, false, &InvalidKeyError{Hash: key.hash}
	}
	p := entryPath(key.hash)
	data, err := fs.ReadFile(s.fsys, p)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return Entry{}, false, nil
		}
		return Entry{}, false, fmt.Errorf("cache: read %s: %w", p, err)
	}
	e, err := decodeEntry(p, data, key.hash, s.opts.Strict)
	if err != nil {
		return Entry{}, false, err
	}
	return e, true, nil
}

// Put records e under key, replacing any previous entry. Tool, API and
// Arguments come from the key; e.Response must be JSON. The write is atomic
// (temporary file, fsync, rename, fsync of the folder): a reader or a crash
// sees the old entry or the new one, never a mix.
func (s *Store) Put(key Key, e Entry) error {
	_, err := s.put(key, e)
	return err
}

// put writes e and returns it as stored. On a *WriteError the prepared
// entry is returned too, so a cache can still hold it.
func (s *Store) put(key Key, e Entry) (Entry, error) {
	e, err := prepare(key, e, s.opts.Clock)
	if err != nil {
		return Entry{}, err
	}
	if s.roErr != nil {
		return e, &WriteError{Dir: s.dir, Hash: key.hash, Op: "put", Err: s.roErr}
	}
	data, err := encodeEntry(key, &e)
	if err != nil {
		return Entry{}, fmt.Errorf("cache: encode %s: %w", key, err)
	}
	mu := &s.locks[hexNibble(key.hash[0])<<2|hexNibble(key.hash[1])>>2]
	mu.Lock()
	err = s.writeEntry(key.hash, data)
	mu.Unlock()
	if err == nil {
		err = s.appendIndex(key)
	}
	return e, err
}

// prepare checks key and e and fills what a stored entry always has:
// names and arguments from the key, compact response, status, time.
func prepare(key Key, e Entry, clk clock.Clock) (Entry, error) {
	if !validHash(key.hash) || key.tool == "" || key.api == "" {
		return Entry{}, &InvalidKeyError{Hash: key.hash, Reason: "storing needs a key made by KeyOf"}
	}
	if !key.storable() {
		return Entry{}, &InvalidKeyError{Hash: key.hash, Reason: "arguments are not representable in JSON: " + key.args}
	}
	resp, err := compactJSON(e.Response)
	if err != nil {
		return Entry{}, fmt.Errorf("cache: response for %s is not JSON: %w", key, err)
	}
	e.Tool, e.API, e.Arguments, e.Response = key.tool, key.api, json.RawMessage(key.args), resp
	if e.Status == 0 {
		e.Status = 200
	}
	if e.RecordedAt.IsZero() && clk != nil {
		e.RecordedAt = clk.Now()
	}
	e.Edited = false
	return e, nil
}

func hexNibble(c byte) int {
	if c <= '9' {
		return int(c - '0')
	}
	return int(c-'a') + 10
}

// writeEntry writes data as the entry for hash atomically.
func (s *Store) writeEntry(hash string, data []byte) error {
	werr := func(op string, err error) error { return &WriteError{Dir: s.dir, Hash: hash, Op: op, Err: err} }
	shard := filepath.Join(s.dir, hash[:2])
	created := false
	if fi, err := os.Stat(shard); err != nil {
		if err := os.Mkdir(shard, 0o755); err != nil && !errors.Is(err, fs.ErrExist) {
			return werr("mkdir", err)
		}
		created = true
	} else if !fi.IsDir() {
		return werr("mkdir", &fs.PathError{Op: "mkdir", Path: shard, Err: errors.New("a file is in the way of the shard folder")})
	}
	if err := atomicfile.WriteFile(filepath.Join(shard, hash+".json"), data, entryPerm); err != nil {
		return werr(atomicOp(err), err)
	}
	if created {
		if err := atomicfile.SyncDir(s.dir); err != nil {
			return werr("sync", err)
		}
	}
	return nil
}

// atomicOp names the failed step of an atomic write the way WriteError does.
func atomicOp(err error) string {
	var ae *atomicfile.Error
	if errors.As(err, &ae) && ae.Op != "create" {
		return ae.Op
	}
	return "write"
}

func isDir(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.IsDir()
}

// warn hands a non-fatal problem to Options.Warn.
func (s *Store) warn(err error) {
	if s.opts.Warn != nil && err != nil {
		s.opts.Warn(err)
	}
}

// removeTemps deletes temporary files left by crashed writers. The caller
// holds the store's lock exclusively.
func (s *Store) removeTemps() int {
	n := 0
	tops, err := os.ReadDir(s.dir)
	if err != nil {
		return 0
	}
	for _, top := range tops {
		name := top.Name()
		switch {
		case strings.HasPrefix(name, tempPrefix):
			if os.Remove(filepath.Join(s.dir, name)) == nil {
				n++
			}
		case top.IsDir() && isShardName(name):
			files, err := os.ReadDir(filepath.Join(s.dir, name))
			if err != nil {
				continue
			}
			for _, f := range files {
				if strings.HasPrefix(f.Name(), tempPrefix) && os.Remove(filepath.Join(s.dir, name, f.Name())) == nil {
					n++
				}
			}
		}
	}
	return n
}

func isShardName(name string) bool {
	return len(name) == 2 && validHash(name+strings.Repeat("0", 62))
}

// Walk calls fn for every valid entry in hash order. Corrupt entries are
// reported through Options.Warn and skipped. fn's error stops the walk.
func (s *Store) Walk(fn func(Key, Entry) error) error {
	return s.each(func(p, hash string, e Entry, err error) error {
		if err != nil {
			s.warn(err)
			return nil
		}
		return fn(Key{hash: hash, tool: e.Tool, api: e.API, args: string(e.Arguments)}, e)
	})
}

// WalkDocuments calls fn for every valid entry in hash order with the
// entry file's bytes as stored, checksum and all: copies made of them
// (pushed to Redis, exported) keep what the entry says of itself, a hand
// edit included. Corrupt entries are reported through Options.Warn and
// skipped. fn's error stops the walk.
func (s *Store) WalkDocuments(fn func(k Key, e Entry, doc []byte) error) error {
	return s.eachDoc(func(p, hash string, e Entry, doc []byte, err error) error {
		if err != nil {
			s.warn(err)
			return nil
		}
		return fn(Key{hash: hash, tool: e.Tool, api: e.API, args: string(e.Arguments)}, e, doc)
	})
}

// PutDocument stores doc, an entry file's bytes as another store holds
// them, under key, unchanged: its checksum is kept, so an entry edited by
// hand stays one that Verify reports. doc must decode as an entry of key
// (a mismatched checksum is allowed).
func (s *Store) PutDocument(key Key, doc []byte) error {
	if !validHash(key.hash) {
		return &InvalidKeyError{Hash: key.hash}
	}
	e, err := decodeEntry(entryPath(key.hash), doc, key.hash, false)
	if err != nil {
		return err
	}
	if s.roErr != nil {
		return &WriteError{Dir: s.dir, Hash: key.hash, Op: "put", Err: s.roErr}
	}
	key = Key{hash: key.hash, tool: e.Tool, api: e.API, args: string(e.Arguments)}
	mu := &s.locks[hexNibble(key.hash[0])<<2|hexNibble(key.hash[1])>>2]
	mu.Lock()
	err = s.writeEntry(key.hash, doc)
	mu.Unlock()
	if err == nil {
		err = s.appendIndex(key)
	}
	return err
}

// putLater writes doc, an entry of a later format than this version
// reads, byte for byte under hash, with an index line made of the fields
// every version has when doc holds them (the index is for people; this
// version ignores the lines of such entries).
func (s *Store) putLater(hash string, doc []byte) error {
	if !validHash(hash) {
		return &InvalidKeyError{Hash: hash}
	}
	if s.roErr != nil {
		return &WriteError{Dir: s.dir, Hash: hash, Op: "put", Err: s.roErr}
	}
	mu := &s.locks[hexNibble(hash[0])<<2|hexNibble(hash[1])>>2]
	mu.Lock()
	err := s.writeEntry(hash, doc)
	mu.Unlock()
	var f entryFile
	if err != nil || json.Unmarshal(doc, &f) != nil || f.Tool == "" || f.API == "" {
		return err
	}
	return s.appendIndex(Key{hash: hash, tool: f.Tool, api: f.API, args: cmp.Or(string(f.Arguments), "{}")})
}

// each calls fn for every file named like an entry, in hash order, with the
// decoded entry or the reason it cannot be used.
func (s *Store) each(fn func(p, hash string, e Entry, err error) error) error {
	return s.eachDoc(func(p, hash string, e Entry, _ []byte, err error) error { return fn(p, hash, e, err) })
}

// eachDoc is each with the entry file's bytes.
func (s *Store) eachDoc(fn func(p, hash string, e Entry, doc []byte, err error) error) error {
	tops, err := fs.ReadDir(s.fsys, ".")
	if err != nil {
		return fmt.Errorf("cache: list store: %w", err)
	}
	for _, top := range tops {
		if !top.IsDir() || !isShardName(top.Name()) {
			continue
		}
		files, err := fs.ReadDir(s.fsys, top.Name())
		if err != nil {
			if ferr := fn(top.Name(), "", Entry{}, nil, &CorruptError{Path: top.Name(), Reason: "unreadable folder", Err: err}); ferr != nil {
				return ferr
			}
			continue
		}
		for _, f := range files {
			if s.stopping.Load() {
				return errStopped
			}
			name := f.Name()
			hash, ok := strings.CutSuffix(name, ".json")
			if !ok || !validHash(hash) || hash[:2] != top.Name() || f.IsDir() {
				continue
			}
			p := path.Join(top.Name(), name)
			data, err := fs.ReadFile(s.fsys, p)
			var e Entry
			if err == nil {
				e, err = decodeEntry(p, data, hash, s.opts.Strict)
			} else {
				err = &CorruptError{Path: p, Reason: "unreadable", Err: err}
			}
			if ferr := fn(p, hash, e, data, err); ferr != nil {
				return ferr
			}
		}
	}
	return nil
}

// Scan checks every entry and reports what it found, warning about corrupt
// and edited entries.
func (s *Store) Scan() ScanReport {
	r, _ := s.scan(false, true)
	return r
}

// scan walks the store; with records it also returns the index record of
// every valid entry, in hash order. With warn, corrupt and edited entries
// are reported through Options.Warn as they are found.
func (s *Store) scan(records, warn bool) (ScanReport, []indexRecord) {
	r := ScanReport{PerTool: map[string]int{}}
	var recs []indexRecord
	err := s.each(func(p, hash string, e Entry, err error) error {
		if err != nil {
			var ce *CorruptError
			if errors.As(err, &ce) {
				r.Corrupt = append(r.Corrupt, *ce)
			}
			if warn {
				s.warn(err)
			}
			return nil
		}
		r.Entries++
		r.PerTool[e.Tool]++
		if e.Edited {
			r.Edited = append(r.Edited, p)
			if warn {
				s.warn(&EditedWarning{Path: p})
			}
		}
		if records {
			recs = append(recs, indexRecord{Key: hash, Tool: e.Tool, API: e.API, Arguments: e.Arguments})
		}
		return nil
	})
	if err != nil && !errors.Is(err, errStopped) {
		s.warn(err)
	}
	return r, recs
}

// errStopped ends a walk of a store being closed.
var errStopped = errors.New("cache: store closed")
