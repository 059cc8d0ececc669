package cache

import (
	"errors"
	"fmt"
)

// ErrReadOnly is wrapped by the WriteError of a Put on a read-only store
// (an embedded fs.FS, Options.ReadOnly, or a directory that cannot be written).
var ErrReadOnly = errors.New("store is read-only")

// InvalidKeyError reports a key that is not a 64-digit lowercase hex hash, or
// one whose arguments JSON cannot represent.
type InvalidKeyError struct {
	Hash   string
	Reason string
}

func (e *InvalidKeyError) Error() string {
	if e.Reason != "" {
		return fmt.Sprintf("cache: invalid key %q: %s", e.Hash, e.Reason)
	}
	return fmt.Sprintf("cache: invalid key %q: want 64 lowercase hex digits", e.Hash)
}

// CorruptError reports an entry that cannot be used: truncated, not JSON,
// missing fields, or recorded for a different call than its file name says.
// A corrupt entry is skipped; it never affects other entries.
type CorruptError struct {
	Path   string // slash-separated, relative to the store root
	Reason string
	Err    error
	// Format is set when the entry is a recording of a format this version
	// does not read (a later version's "understudy-recording/2"): it is
	// not served, and it is left as it is, its index line included, and
	// copied byte for byte by export and import.
	Format string
}

func (e *CorruptError) Error() string {
	msg := fmt.Sprintf("cache: corrupt entry %s: %s", e.Path, e.Reason)
	if e.Err != nil {
		msg += ": " + e.Err.Error()
	}
	return msg
}

func (e *CorruptError) Unwrap() error { return e.Err }

// WriteError reports a Put that failed; the store keeps serving reads.
// errors.Is(err, ErrReadOnly) tells a read-only store, and the wrapped
// system error tells the rest (syscall.ENOSPC for a full disk).
type WriteError struct {
	Dir  string
	Hash string
	Op   string // "put", "mkdir", "write", "sync", "rename", "index"
	Err  error
}

func (e *WriteError) Error() string {
	return fmt.Sprintf("cache: cannot record %s in %s (%s): %v", e.Hash, e.Dir, e.Op, e.Err)
}

func (e *WriteError) Unwrap() error { return e.Err }

// EditedWarning notes an entry whose checksum no longer matches: it was
// changed by hand after recording. The entry is used as edited.
type EditedWarning struct {
	Path string
}

func (e *EditedWarning) Error() string {
	return fmt.Sprintf("cache: entry %s was edited after recording (checksum differs); using it as edited", e.Path)
}

// IndexRepairedWarning notes that the index did not match the entries (after
// a crash or a hand edit) and was rewritten from them.
type IndexRepairedWarning struct {
	Path    string
	Entries int
	Reason  string
}

func (e *IndexRepairedWarning) Error() string {
	return fmt.Sprintf("cache: index %s rewritten from %d entries: %s", e.Path, e.Entries, e.Reason)
}
