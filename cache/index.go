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
		s.report, _ = s.scan(false)
		return fmt.Errorf("cache: lock index: %w", err)
	}
	defer unlock()
	removed := s.report.TempRemoved
	report, recs := s.scan(true)
	report.TempRemoved = removed
	s.report = report

	reason := ""
	var have []IndexRecord
	lines, bad := 0, 0
	if f, err := os.Open(filepath.Join(s.dir, indexName)); err == nil {
		have, lines, bad, err = ReadIndex(f)
		f.Close()
		if err != nil {
			reason = "unreadable: " + err.Error()
		}
	} else if !errors.Is(err, fs.ErrNotExist) {
		reason = "unreadable: " + err.Error()
	} else if len(recs) > 0 {
		reason = "missing"
	}
	if reason == "" && bad > 0 {
		reason = strconv.Itoa(bad) + " unreadable lines"
	}
	if reason == "" {
		byKey := make(map[string]IndexRecord, len(have))
		for _, r := range have {
			byKey[r.Key] = r
		}
		for _, r := range recs {
			got, ok := byKey[r.Key]
			if !ok {
				reason = "no line for entry " + r.Key
				break
			}
			if got.Tool != r.Tool || got.API != r.API || !bytes.Equal(got.Arguments, r.Arguments) {
				reason = "line for " + r.Key + " differs from its entry"
				break
			}
			delete(byKey, r.Key)
		}
		if reason == "" && len(byKey) > 0 {
			reason = strconv.Itoa(len(byKey)) + " lines name no valid entry"
		}
		if reason == "" && lines > 2*len(recs)+16 {
			reason = "compacting repeated lines"
		}
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
