package cache

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/understudy/understudy/internal/atomicfile"
)

// IndexRecord is one line of index.jsonl: which call an entry file answers.
// The index is for people (grep it, read it) and is rebuilt from the entries
// whenever it disagrees with them; the entries are the truth.
type IndexRecord struct {
	Key       string          `json:"key"`
	Tool      string          `json:"tool"`
	API       string          `json:"api"`
	Arguments json.RawMessage `json:"arguments"`
}

type indexRecord = IndexRecord

// ReadIndex parses index.jsonl. Lines that do not parse are counted in bad
// and skipped; a later line for the same key replaces an earlier one.
func ReadIndex(r io.Reader) (recs []IndexRecord, lines, bad int, err error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64*1024), 64<<20)
	seen := map[string]int{}
	for sc.Scan() {
		line := sc.Bytes()
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		lines++
		var rec IndexRecord
		if json.Unmarshal(line, &rec) != nil || !validHash(rec.Key) {
			bad++
			continue
		}
		if i, ok := seen[rec.Key]; ok {
			recs[i] = rec
			continue
		}
		seen[rec.Key] = len(recs)
		recs = append(recs, rec)
	}
	return recs, lines, bad, sc.Err()
}

func indexLine(rec IndexRecord) []byte {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(rec) // fields are strings and canonical JSON
	return buf.Bytes()
}

// lockIndex serialises index writers: goroutines by mutex, processes by an
// advisory lock on a file of its own (the index itself is replaced by
// rename when repaired, so it cannot carry the lock).
func (s *Store) lockIndex() (unlock func(), err error) {
	s.idxMu.Lock()
	f, err := os.OpenFile(filepath.Join(s.dir, indexLockName), os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		s.idxMu.Unlock()
		return nil, err
	}
	if _, err := flock(f, true, true); err != nil {
		f.Close()
		s.idxMu.Unlock()
		return nil, err
	}
	return func() {
		funlock(f)
		f.Close()
		s.idxMu.Unlock()
	}, nil
}

// appendIndex adds the line for key with one write under the index lock.
func (s *Store) appendIndex(key Key) error {
	unlock, err := s.lockIndex()
	if err != nil {
		return &WriteError{Dir: s.dir, Hash: key.hash, Op: "index", Err: err}
	}
	defer unlock()
	f, err := os.OpenFile(filepath.Join(s.dir, indexName), os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return &WriteError{Dir: s.dir, Hash: key.hash, Op: "index", Err: err}
	}
	_, err = f.Write(indexLine(IndexRecord{Key: key.hash, Tool: key.tool, API: key.api, Arguments: json.RawMessage(key.args)}))
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return &WriteError{Dir: s.dir, Hash: key.hash, Op: "index", Err: err}
	}
	return nil
}

// checkIndex scans the entries and rewrites the index when it does not
// describe exactly the valid entries. It runs under the index lock so that
// no other process's line is lost by the rewrite.
func (s *Store) checkIndex() error {
	unlock, err := s.lockIndex()
	if err != nil {
		report, _ := s.scan(false, true)
		s.setReport(report)
		return fmt.Errorf("cache: lock index: %w", err)
	}
	defer unlock()
	report, recs := s.scan(true, true)
	if s.stopping.Load() {
		// The scan was cut short by Close: rewriting from it would drop
		// the lines of entries it did not reach.
		return nil
	}
	s.setReport(report)
	have, lines, bad, reason := s.readIndexFile(len(recs) > 0)
	if reason == "" {
		reason = indexMismatch(recs, have, lines, bad)
	}
	if reason == "" {
		return nil
	}
	var buf bytes.Buffer
	for _, r := range recs {
		buf.Write(indexLine(r))
	}
	if err := atomicfile.WriteFile(filepath.Join(s.dir, indexName), buf.Bytes(), entryPerm); err != nil {
		return &WriteError{Dir: s.dir, Op: "index", Err: err}
	}
	s.warn(&IndexRepairedWarning{Path: filepath.Join(s.dir, indexName), Entries: len(recs), Reason: reason})
	return nil
}

// readIndexFile reads index.jsonl; reason is set when it cannot be read,
// or is missing while entries exist.
func (s *Store) readIndexFile(entriesExist bool) (have []IndexRecord, lines, bad int, reason string) {
	f, err := os.Open(filepath.Join(s.dir, indexName))
	switch {
	case err == nil:
		have, lines, bad, err = ReadIndex(f)
		f.Close()
		if err != nil {
			return nil, 0, 0, "unreadable: " + err.Error()
		}
	case !errors.Is(err, fs.ErrNotExist):
		return nil, 0, 0, "unreadable: " + err.Error()
	case entriesExist:
		return nil, 0, 0, "missing"
	}
	return have, lines, bad, ""
}

// indexMismatch says why the index (have, read from lines lines of which
// bad did not parse) does not describe exactly the valid entries recs, or
// "" when it does.
func indexMismatch(recs, have []IndexRecord, lines, bad int) string {
	if bad > 0 {
		return strconv.Itoa(bad) + " unreadable lines"
	}
	byKey := make(map[string]IndexRecord, len(have))
	for _, r := range have {
		byKey[r.Key] = r
	}
	for _, r := range recs {
		got, ok := byKey[r.Key]
		if !ok {
			return "no line for entry " + r.Key
		}
		if got.Tool != r.Tool || got.API != r.API || !bytes.Equal(got.Arguments, r.Arguments) {
			return "line for " + r.Key + " differs from its entry"
		}
		delete(byKey, r.Key)
	}
	if len(byKey) > 0 {
		return strconv.Itoa(len(byKey)) + " lines name no valid entry"
	}
	if lines > 2*len(recs)+16 {
		return "compacting repeated lines"
	}
	return ""
}

// openFast is the start of a store whose index names exactly the entry
// files present: the report comes from the index alone, without reading
// any entry, and ok is true. Otherwise (a crash left an entry without its
// line, a line without its entry, a torn or bloated index) nothing is set
// and the caller checks every entry. Reading and checksumming 7,088
// entries took 6.9 s; listing them takes milliseconds.
func (s *Store) openFast() (ok bool) {
	unlock, err := s.lockIndex()
	if err != nil {
		return false
	}
	defer unlock()
	have, lines, bad, reason := s.readIndexFile(true)
	if reason != "" || bad > 0 || lines > 2*len(have)+16 {
		return false
	}
	files, err := s.entryHashes()
	if err != nil || len(files) != len(have) {
		return false
	}
	report := ScanReport{Entries: len(have), PerTool: map[string]int{}, TempRemoved: s.report.TempRemoved}
	for _, r := range have {
		if _, ok := files[r.Key]; !ok {
			return false
		}
		report.PerTool[r.Tool]++
	}
	s.report = report
	return true
}

// testHookVerify runs as the background check starts; tests hold it back.
var testHookVerify = func() {}

// entryHashes lists the files named like entries, without reading them.
func (s *Store) entryHashes() (map[string]struct{}, error) {
	tops, err := fs.ReadDir(s.fsys, ".")
	if err != nil {
		return nil, err
	}
	out := map[string]struct{}{}
	for _, top := range tops {
		if !top.IsDir() || !isShardName(top.Name()) {
			continue
		}
		files, err := fs.ReadDir(s.fsys, top.Name())
		if err != nil {
			return nil, err
		}
		for _, f := range files {
			if hash, ok := strings.CutSuffix(f.Name(), ".json"); ok && validHash(hash) && hash[:2] == top.Name() && !f.IsDir() {
				out[hash] = struct{}{}
			}
		}
	}
	return out, nil
}

// verify checks every entry after a fast open, in the background. Get
// checks each entry it reads anyway, so a corrupt entry is never served
// in the meantime; verify reports corrupt and edited entries through
// Options.Warn and repairs the index when they leave it wrong.
func (s *Store) verify() {
	testHookVerify()
	report, recs := s.scan(true, false)
	if s.stopping.Load() {
		return
	}
	have, lines, bad, reason := s.readIndexFile(len(recs) > 0)
	if reason == "" {
		reason = indexMismatch(recs, have, lines, bad)
	}
	if reason != "" || len(report.Corrupt) > 0 {
		// Rescanned under the index lock, warning as it goes, so that no
		// other writer's line is lost by the rewrite.
		s.warn(s.checkIndex())
		return
	}
	s.setReport(report)
	for _, p := range report.Edited {
		s.warn(&EditedWarning{Path: p})
	}
}

// Recorded lists the calls of one tool's API that the store's index names,
// as the index holds them now (recordings made since Open included). It is
// for replay's misses (the nearest recorded calls, a call equal but for
// the form of its arguments), not for the hot path: it reads the index.
func (s *Store) Recorded(tool, api string) ([]IndexRecord, error) {
	f, err := s.fsys.Open(indexName)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	recs, _, _, err := ReadIndex(f)
	var out []IndexRecord
	for _, r := range recs {
		if r.Tool == tool && r.API == api {
			out = append(out, r)
		}
	}
	return out, err
}

// Recorded lists the calls of one tool's API the cache's stores have
// recorded (Store.Recorded), the first layer's first; a key two layers
// hold is listed once.
func (c *Cache) Recorded(tool, api string) ([]IndexRecord, error) {
	var out []IndexRecord
	var errs []error
	seen := map[string]bool{}
	for _, l := range c.layers {
		s, ok := l.(*Store)
		if !ok {
			continue
		}
		recs, err := s.Recorded(tool, api)
		errs = append(errs, err)
		for _, r := range recs {
			if !seen[r.Key] {
				seen[r.Key] = true
				out = append(out, r)
			}
		}
	}
	return out, errors.Join(errs...)
}
