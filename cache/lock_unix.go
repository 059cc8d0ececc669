//go:build unix

package cache

import (
	"errors"
	"os"
	"syscall"
)

// flock takes an advisory lock on f: exclusive or shared, waiting or not.
// It reports false without error when nonblocking and the lock is held
// elsewhere.
func flock(f *os.File, exclusive, wait bool) (bool, error) {
	how := syscall.LOCK_SH
	if exclusive {
		how = syscall.LOCK_EX
	}
	if !wait {
		how |= syscall.LOCK_NB
	}
	for {
		err := syscall.Flock(int(f.Fd()), how)
		switch {
		case err == nil:
			return true, nil
		case errors.Is(err, syscall.EINTR):
			continue
		case !wait && errors.Is(err, syscall.EWOULDBLOCK):
			return false, nil
		default:
			return false, err
		}
	}
}

func funlock(f *os.File) error { return syscall.Flock(int(f.Fd()), syscall.LOCK_UN) }
