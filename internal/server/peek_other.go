//go:build !(linux || darwin || freebsd || netbsd || openbsd || dragonfly)

package server

import "net"

// requestWaiting cannot peek here: a connection nothing was read from yet
// is evicted like one still sending its header.
func requestWaiting(net.Conn, []byte) bool { return false }
