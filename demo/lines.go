package demo

// Reading the console's command lines: from a terminal with line editing
// and history, from anything else (a pipe, a file, a test) line by line.

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"sync"

	"golang.org/x/term"
)

// lineSource gives the console its command lines, one when asked.
type lineSource interface {
	// readLine returns the next line without its line ending, after
	// showing prompt ("" for none). At the end of input the error is
	// io.EOF.
	readLine(prompt string) (string, error)
}

// plainLines reads lines as they come, for input that is not a terminal:
// scripts, pipes and tests. The prompt, when there is one, is written to
// out as it is.
type plainLines struct {
	sc  *bufio.Scanner
	out io.Writer
}

func newPlainLines(in io.Reader, out io.Writer) *plainLines {
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	return &plainLines{sc: sc, out: out}
}

func (p *plainLines) readLine(prompt string) (string, error) {
	if prompt != "" {
		fmt.Fprint(p.out, prompt)
	}
	if p.sc.Scan() {
		return p.sc.Text(), nil
	}
	if err := p.sc.Err(); err != nil {
		return "", err
	}
	return "", io.EOF
}

// lineEditor reads lines from a terminal the way a shell does: Left and
// Right move in the line, Home and End (or Ctrl-A, Ctrl-E) go to its ends,
// Up and Down recall earlier lines, Backspace, Delete, Ctrl-W and Ctrl-K
// edit. golang.org/x/term's Terminal does the editing; the terminal is raw
// only while a line is typed, so the commands' output, and Ctrl-C while a
// command runs, behave as usual. Ctrl-D on an empty line, and Ctrl-C
// while typing, end the input as the end of a script does.
type lineEditor struct {
	t *term.Terminal
	// raw puts the terminal in raw mode and returns what undoes it.
	raw func() (restore func() error, err error)
	// size is the terminal's width and height, for wrapping long lines.
	size func() (width, height int, err error)

	mu      sync.Mutex
	restore func() error // set while the terminal is raw
}

// newLineEditor edits lines typed at the terminal in, echoing to out.
func newLineEditor(in, out *os.File) *lineEditor {
	fd := int(in.Fd())
	return &lineEditor{
		t: term.NewTerminal(struct {
			io.Reader
			io.Writer
		}{keyReader{in}, out}, ""),
		raw: func() (func() error, error) {
			st, err := term.MakeRaw(fd)
			if err != nil {
				return nil, err
			}
			return func() error { return term.Restore(fd, st) }, nil
		},
		size: func() (int, int, error) { return term.GetSize(int(out.Fd())) },
	}
}

func (e *lineEditor) readLine(prompt string) (string, error) {
	restore, err := e.raw()
	if err != nil {
		return "", fmt.Errorf("terminal: %w", err)
	}
	e.mu.Lock()
	e.restore = restore
	e.mu.Unlock()
	defer e.close()
	// Read each time: the window may have been resized since.
	if w, h, err := e.size(); err == nil {
		_ = e.t.SetSize(w, h) // only fails writing a redraw; the line is read anyway
	}
	e.t.SetPrompt(prompt)
	line, err := e.t.ReadLine()
	if errors.Is(err, term.ErrPasteIndicator) {
		// A pasted line is a line like any other here.
		err = nil
	}
	return line, err
}

// close gives the terminal back as it was, if a line is being read: the
// console calls it when it stops (a signal) while waiting for one.
func (e *lineEditor) close() error {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.restore == nil {
		return nil
	}
	err := e.restore()
	e.restore = nil
	return err
}

// keyReader rewrites the other common encodings of Home, End and the
// arrow keys into the ones x/term's Terminal knows (ESC [ H, ESC [ F,
// ESC [ A…D), so they edit the line rather than being dropped: tmux and
// screen send ESC [ 1 ~ and ESC [ 4 ~ for Home and End, rxvt ESC [ 7 ~
// and ESC [ 8 ~, and a terminal in application cursor mode ESC O H, ESC
// O A and so on. Every rewrite is no longer than what it replaces, so it
// is done in place; a key whose bytes arrive split over two reads (rare:
// a terminal writes a key at once) is ignored by the Terminal, never
// printed.
type keyReader struct{ r io.Reader }

var keyRewrites = []struct{ from, to []byte }{
	{[]byte("\x1b[1~"), []byte("\x1b[H")},
	{[]byte("\x1b[7~"), []byte("\x1b[H")},
	{[]byte("\x1bOH"), []byte("\x1b[H")},
	{[]byte("\x1b[4~"), []byte("\x1b[F")},
	{[]byte("\x1b[8~"), []byte("\x1b[F")},
	{[]byte("\x1bOF"), []byte("\x1b[F")},
	{[]byte("\x1bOA"), []byte("\x1b[A")},
	{[]byte("\x1bOB"), []byte("\x1b[B")},
	{[]byte("\x1bOC"), []byte("\x1b[C")},
	{[]byte("\x1bOD"), []byte("\x1b[D")},
}

func (k keyReader) Read(p []byte) (int, error) {
	n, err := k.r.Read(p)
	if n == 0 || bytes.IndexByte(p[:n], 0x1b) < 0 {
		return n, err
	}
	b := p[:n]
	for _, rw := range keyRewrites {
		if bytes.Contains(b, rw.from) {
			b = bytes.ReplaceAll(b, rw.from, rw.to)
		}
	}
	return copy(p, b), err
}
