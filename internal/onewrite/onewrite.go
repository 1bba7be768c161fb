// Package onewrite lets a handler send an HTTP response that net/http
// would write in several write calls in one.
//
// net/http buffers 4 kB per connection, so an answer larger than that
// (with its headers) leaves in two write calls or more, and on Linux each
// write on a socket with TCP_NODELAY (Go's default) is sent at once:
// protocol work, and on loopback the reader woken, per call. Slack's
// answer to /actions is 5 to 40 kB. Listen wraps each accepted TCP
// connection so that a handler can hold what net/http writes on it
// (Hold) and send it in one write (Send): a memory copy in place of the
// extra system calls. docs/performance.md has the figures.
package onewrite

import (
	"context"
	"io"
	"net"
	"sync"
)

// Listen returns l whose TCP connections are *Conn: give it to an
// http.Server with ConnContext, so that From finds them.
func Listen(l net.Listener) net.Listener { return listener{l} }

type listener struct{ net.Listener }

func (l listener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if tc, ok := c.(*net.TCPConn); ok {
		return &Conn{TCPConn: tc}, nil
	}
	return c, err
}

// Conn is an accepted TCP connection that can hold what is written on it.
// It keeps every method of *net.TCPConn (net/http looks for ReadFrom and
// CloseWrite); only writes are its own. A nil *Conn (no TCP connection:
// a test's recorder, Socket Mode) does nothing.
type Conn struct {
	*net.TCPConn
	// held is what was written since Hold, while held; nil otherwise.
	// Only the connection's own goroutine (net/http's, which runs the
	// handler) writes, holds and sends.
	held *[]byte
}

type connKey struct{}

// ConnContext is an http.Server's ConnContext: it keeps each *Conn for
// From.
func ConnContext(ctx context.Context, c net.Conn) context.Context {
	if oc, ok := c.(*Conn); ok {
		return context.WithValue(ctx, connKey{}, oc)
	}
	return ctx
}

// From is the connection of the request whose context is ctx, or nil.
func From(ctx context.Context) *Conn {
	c, _ := ctx.Value(connKey{}).(*Conn)
	return c
}

// Hold keeps what is written on c from now on in memory until Send. The
// caller must flush its http.ResponseWriter and Send before it returns to
// net/http, which otherwise writes the end of the response after it.
func (c *Conn) Hold() {
	if c != nil && c.held == nil {
		c.held = buffers.Get().(*[]byte)
	}
}

// Send writes what Hold kept in one write, and writes directly again. A
// failure means the connection is broken, which net/http finds out on
// its next read or write.
func (c *Conn) Send() error {
	if c == nil || c.held == nil {
		return nil
	}
	b := c.held
	c.held = nil
	_, err := c.TCPConn.Write(*b)
	if cap(*b) <= maxKept {
		*b = (*b)[:0]
		buffers.Put(b)
	}
	return err
}

// Write writes p, or keeps it while c holds.
func (c *Conn) Write(p []byte) (int, error) {
	if c.held != nil {
		*c.held = append(*c.held, p...)
		return len(p), nil
	}
	return c.TCPConn.Write(p)
}

// ReadFrom sends what c holds before r's bytes, which net/http copies
// straight to the socket (a file, with sendfile).
func (c *Conn) ReadFrom(r io.Reader) (int64, error) {
	if err := c.Send(); err != nil {
		return 0, err
	}
	return c.TCPConn.ReadFrom(r)
}

// maxKept is the largest buffer kept for the next Hold.
const maxKept = 64 << 10

var buffers = sync.Pool{New: func() any {
	b := make([]byte, 0, 16<<10)
	return &b
}}
