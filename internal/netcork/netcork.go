// Package netcork lets a handler send an HTTP response that net/http
// writes in several write calls as one burst.
//
// net/http buffers 4 kB per connection, so an answer larger than that
// leaves in two write calls or more, and on Linux each write on a socket
// with TCP_NODELAY (Go's default) is sent at once: protocol work, and on
// loopback the reader woken, per call. Slack's answer to /actions is
// 5 to 40 kB. Corking the socket (TCP_CORK, tcp(7)) while the answer is
// written, then uncorking it, turns those calls into memory copies and
// one send; docs/performance.md has the figures.
package netcork

import (
	"context"
	"net"
	"syscall"
)

type connKey struct{}

// Conn is the TCP connection a request came on; the zero of *Conn (no
// TCP connection: a test's recorder, Socket Mode) does nothing.
type Conn struct {
	raw syscall.RawConn
}

// ConnContext is an http.Server's ConnContext: it keeps the descriptor of
// each TCP connection, looked up once per connection, for From.
func ConnContext(ctx context.Context, c net.Conn) context.Context {
	tc, ok := c.(*net.TCPConn)
	if !ok {
		return ctx
	}
	raw, err := tc.SyscallConn()
	if err != nil {
		return ctx
	}
	return context.WithValue(ctx, connKey{}, &Conn{raw: raw})
}

// From is the connection of the request whose context is ctx, or nil.
func From(ctx context.Context) *Conn {
	c, _ := ctx.Value(connKey{}).(*Conn)
	return c
}

// Cork holds what is written on c until Uncork. The caller must call
// Uncork before it returns to net/http: the kernel holds corked data up
// to 200 ms, and the next answer on a kept-alive connection would wait.
func (c *Conn) Cork() {
	if c != nil {
		c.raw.Control(corkOn)
	}
}

// Uncork sends what Cork held. A failure means the socket is closed, and
// then nobody waits for what it held.
func (c *Conn) Uncork() {
	if c != nil {
		c.raw.Control(corkOff)
	}
}
