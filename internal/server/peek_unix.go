//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package server

import (
	"net"
	"syscall"
)

// requestWaiting reports whether the kernel holds, not yet read, the whole
// header of a request on c (its empty line within the first len(buf)
// bytes). It peeks without blocking and without taking the connection's
// read lock, so a read under way elsewhere neither waits for it nor loses
// a byte.
func requestWaiting(c net.Conn, buf []byte) bool {
	sc, ok := c.(syscall.Conn)
	if !ok {
		return false
	}
	rc, err := sc.SyscallConn()
	if err != nil {
		return false
	}
	n := 0
	cerr := rc.Control(func(fd uintptr) {
		n, _, err = syscall.Recvfrom(int(fd), buf, syscall.MSG_PEEK|syscall.MSG_DONTWAIT)
	})
	if cerr != nil || err != nil || n <= 0 {
		return false
	}
	return headerEnd(buf[:n], 1) >= 0
}
