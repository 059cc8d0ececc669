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
	"path"
	"path/filepath"
	"slices"
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
	recs, _, lines, bad, err = readIndex(r)
	return recs, lines, bad, err
}

// readIndex is ReadIndex with each record's line as written (its last
// one), so that a line this version did not write can be kept unchanged.
func readIndex(r io.Reader) (recs []IndexRecord, raw map[string][]byte, lines, bad int, err error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64*1024), 64<<20)
	seen := map[string]int{}
	raw = map[string][]byte{}
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
		raw[rec.Key] = append(append([]byte(nil), line...), '\n')
		if i, ok := seen[rec.Key]; ok {
			recs[i] = rec
			continue
		}
		seen[rec.Key] = len(recs)
		recs = append(recs, rec)
	}
	return recs, raw, lines, bad, sc.Err()
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
	keep := laterFormats(report)
	have, raw, lines, bad, reason := s.readIndexFile(len(recs) > 0)
	if reason == "" {
		reason = indexMismatch(recs, have, lines, bad, keep)
	}
	if reason == "" {
		return nil
	}
	// The rewrite keeps, as written, the line of every entry of a later
	// format: a later version wrote both, and this one cannot read them.
	out := make([]indexLineOf, 0, len(recs)+len(keep))
	for _, r := range recs {
		out = append(out, indexLineOf{r.Key, indexLine(r)})
	}
	for k := range keep {
		if line, ok := raw[k]; ok {
			out = append(out, indexLineOf{k, line})
		}
	}
	slices.SortFunc(out, func(a, b indexLineOf) int { return strings.Compare(a.key, b.key) })
	var buf bytes.Buffer
	for _, l := range out {
		buf.Write(l.line)
	}
	if err := atomicfile.WriteFile(filepath.Join(s.dir, indexName), buf.Bytes(), entryPerm); err != nil {
		return &WriteError{Dir: s.dir, Op: "index", Err: err}
	}
	s.warn(&IndexRepairedWarning{Path: filepath.Join(s.dir, indexName), Entries: len(recs), Reason: reason})
	return nil
}

type indexLineOf struct {
	key  string
	line []byte
}

// laterFormats is the keys of the entries a scan found of a format this
// version does not read.
func laterFormats(r ScanReport) map[string]bool {
	keep := map[string]bool{}
	for _, c := range r.Corrupt {
		if c.Format != "" {
			if hash, ok := strings.CutSuffix(path.Base(c.Path), ".json"); ok && validHash(hash) {
				keep[hash] = true
			}
		}
	}
	return keep
}

// readIndexFile reads index.jsonl; reason is set when it cannot be read,
// or is missing while entries exist.
func (s *Store) readIndexFile(entriesExist bool) (have []IndexRecord, raw map[string][]byte, lines, bad int, reason string) {
	f, err := os.Open(filepath.Join(s.dir, indexName))
	switch {
	case err == nil:
		have, raw, lines, bad, err = readIndex(f)
		f.Close()
		if err != nil {
			return nil, nil, 0, 0, "unreadable: " + err.Error()
		}
	case !errors.Is(err, fs.ErrNotExist):
		return nil, nil, 0, 0, "unreadable: " + err.Error()
	case entriesExist:
		return nil, nil, 0, 0, "missing"
	}
	return have, raw, lines, bad, ""
}

// indexMismatch says why the index (have, read from lines lines of which
// bad did not parse) does not describe exactly the valid entries recs and
// the entries of a later format keep, or "" when it does.
func indexMismatch(recs, have []IndexRecord, lines, bad int, keep map[string]bool) string {
	if bad > 0 {
		return strconv.Itoa(bad) + " unreadable lines"
	}
	byKey := make(map[string]IndexRecord, len(have))
	for _, r := range have {
		if !keep[r.Key] {
			byKey[r.Key] = r
		}
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
	if lines > 2*(len(recs)+len(keep))+16 {
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
	have, _, lines, bad, reason := s.readIndexFile(true)
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
	keep := laterFormats(report)
	have, _, lines, bad, reason := s.readIndexFile(len(recs) > 0)
	if reason == "" {
		reason = indexMismatch(recs, have, lines, bad, keep)
	}
	if reason != "" || len(report.Corrupt) > len(keep) {
		// Rescanned under the index lock, warning as it goes, so that no
		// other writer's line is lost by the rewrite.
		s.warn(s.checkIndex())
		return
	}
	s.setReport(report)
	for _, c := range report.Corrupt {
		s.warn(&c)
	}
	for _, p := range report.Edited {
		s.warn(&EditedWarning{Path: p})
	}
}

// Recorded lists the calls of one tool's API that the store's index names,
// as the index holds them now (recordings made since Open included); for a
// read-only store, the index built from its entries when it was opened. It is
// for replay's misses (the nearest recorded calls, a call equal but for
// the form of its arguments), not for the hot path: it reads the index.
func (s *Store) Recorded(tool, api string) ([]IndexRecord, error) {
	if s.roErr != nil {
		<-s.verified
		var out []IndexRecord
		for _, r := range s.memIndex {
			if r.Tool == tool && r.API == api {
				out = append(out, r)
			}
		}
		return out, nil
	}
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
