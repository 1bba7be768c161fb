package netcork

import "syscall"

// Without captured variables the two functions are not allocated per call.
var (
	corkOn  = func(fd uintptr) { syscall.SetsockoptInt(int(fd), syscall.IPPROTO_TCP, syscall.TCP_CORK, 1) }
	corkOff = func(fd uintptr) { syscall.SetsockoptInt(int(fd), syscall.IPPROTO_TCP, syscall.TCP_CORK, 0) }
)
