// Package cache stores recorded API answers under canonical call keys: a crash-safe directory of JSON entries with a bounded in-memory LRU in front.
//
// # Keys
//
// KeyOf(tool, api, args) hashes the tool, the API and the canonical JSON of
// the validated arguments (internal/canon: sorted keys, normalised numbers)
// with SHA-256. The same call in any argument order gives the same key.
//
// # Layout of a store directory
//
//	<dir>/index.jsonl            one line per entry: {"key","tool","api","arguments"}
//	<dir>/<h[:2]>/<h>.json       the entry for hash h
//	<dir>/.lock, .index.lock     advisory locks (flock)
//
// Only the 64-digit hash ever becomes a file name, so nothing in a request
// can name a path. An entry file is an indented JSON document:
//
//	{
//	  "format": "understudy-recording/1",
//	  "key": "<hash>",
//	  "tool": "...", "api": "...", "arguments": {...},
//	  "status": 200, "source": "remote", "recorded_at": "2025-06-02T09:00:00Z",
//	  "response": <the answer>,
//	  "checksum": "sha256:..."
//	}
//
// # Crash safety and concurrency
//
// Entries are written to a temporary file in their shard folder, synced,
// renamed over the old entry, and the folder is synced: a reader or a crash
// sees the old entry or the new one. Writers of one key in one process are
// serialised; across processes rename keeps entries whole, and index lines
// are appended under an exclusive flock. Open removes temporary files of
// crashed writers (only when no other process has the store open) and
// reads the index. When the index names exactly the entry files present,
// Open returns at once and checks every entry in the background; otherwise
// it checks every entry first. Either way the index is rewritten from the
// entries when they disagree, and Get checks each entry it reads.
//
// # Corruption and hand edits
//
// A file that is not a complete JSON entry (truncated, garbage, missing
// fields) is a *CorruptError: Get reports it as a miss with that error, Scan
// lists it, and no other entry is affected. The checksum distinguishes
// recordings changed after the fact: a complete, valid entry whose checksum
// no longer matches is accepted with Entry.Edited set and an *EditedWarning,
// so a person can fix a recording by editing "response" or "status" in the
// entry file (re-indenting is not an edit). Options.Strict turns such a
// mismatch into corruption instead. Arguments cannot be edited in place:
// they determine the file name, and the error says where the file must move.
//
// # Several replicas
//
// RedisStore holds the same entry documents in Redis for tool servers that
// share it, with a per-key fill lock (LockKey) so that concurrent misses
// across replicas make one upstream call; ExportRedis and ImportRedis copy
// between Redis and a store directory.
package cache
