// Package atomicfile replaces files so that a reader, or the machine after a crash, sees the old content or the new one, never a torn file.
package atomicfile

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// TempPrefix begins the name of every temporary file WriteFile creates. A
// crash between create and rename can leave one behind; the owner of the
// folder may delete files with this prefix when it opens the folder.
const TempPrefix = ".tmp-"

// Error reports the step of an atomic write that failed.
type Error struct {
	// Op is "create", "write", "sync" or "rename".
	Op   string
	Path string
	Err  error
}

func (e *Error) Error() string { return fmt.Sprintf("atomic write of %s: %s: %v", e.Path, e.Op, e.Err) }
func (e *Error) Unwrap() error { return e.Err }

// WriteFile replaces path with data: a temporary file in the same folder,
// fsync, chmod to perm, rename over path, fsync of the folder so that the
// rename itself survives a power cut. The folder must exist. On failure the
// old file is untouched and the temporary file is removed.
func WriteFile(path string, data []byte, perm fs.FileMode) error {
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	tmp, err := os.CreateTemp(dir, TempPrefix+base+"-*")
	if err != nil {
		return &Error{Op: "create", Path: path, Err: err}
	}
	tmpName := tmp.Name()
	fail := func(op string, err error) error {
		_ = tmp.Close()
		_ = os.Remove(tmpName)
		return &Error{Op: op, Path: path, Err: err}
	}
	if _, err := tmp.Write(data); err != nil {
		return fail("write", err)
	}
	if err := tmp.Chmod(perm); err != nil {
		return fail("write", err)
	}
	if err := tmp.Sync(); err != nil {
		return fail("sync", err)
	}
	if err := tmp.Close(); err != nil {
		_ = os.Remove(tmpName)
		return &Error{Op: "write", Path: path, Err: err}
	}
	if err := os.Rename(tmpName, path); err != nil {
		_ = os.Remove(tmpName)
		return &Error{Op: "rename", Path: path, Err: err}
	}
	if err := SyncDir(dir); err != nil {
		return &Error{Op: "sync", Path: path, Err: err}
	}
	return nil
}

// SyncDir fsyncs a folder, making the creation, rename or removal of its
// entries durable.
func SyncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	err = d.Sync()
	if cerr := d.Close(); err == nil {
		err = cerr
	}
	return err
}
