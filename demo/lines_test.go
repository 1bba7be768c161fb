package demo

import (
	"bytes"
	"io"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/term"
)

// fakeTerminal is what a person types, as the keys' bytes, and what the
// screen received; raw counts how often the terminal was made raw and
// given back.
type fakeTerminal struct {
	in       io.Reader
	screen   bytes.Buffer
	raw, off int
}

func (f *fakeTerminal) Read(p []byte) (int, error)  { return f.in.Read(p) }
func (f *fakeTerminal) Write(p []byte) (int, error) { return f.screen.Write(p) }

// editorOn is a lineEditor on a fake terminal typed into with keys.
func editorOn(keys string) (*lineEditor, *fakeTerminal) {
	f := &fakeTerminal{in: strings.NewReader(keys)}
	e := &lineEditor{
		t: term.NewTerminal(struct {
			io.Reader
			io.Writer
		}{keyReader{f}, f}, ""),
		raw: func() (func() error, error) {
			f.raw++
			return func() error { f.off++; return nil }, nil
		},
		size: func() (int, int, error) { return 100, 40, nil },
	}
	return e, f
}

// TestLineEditor: on a terminal the arrow, Home and End keys edit the line
// and Up recalls earlier lines, in the encodings terminals and tmux send,
// instead of landing in the command as escape codes.
func TestLineEditor(t *testing.T) {
	t.Parallel()
	const (
		up, left, right    = "\x1b[A", "\x1b[D", "\x1b[C"
		homeTmux, endTmux  = "\x1b[1~", "\x1b[4~"
		homeXterm, leftApp = "\x1b[H", "\x1bOD"
	)
	keys := "/actions\r" +
		"/minuts" + left + "e" + left + left + left + left + left + "z" + "\x7f" + endTmux + " finance\r" + // a typo fixed in the middle; Backspace
		"ello" + homeTmux + "h" + "\r" + // Home as tmux sends it
		"ome" + homeXterm + "h\r" + // Home as xterm sends it
		up + up + up + up + "\r" + // history: back to the first line
		"clik 1" + leftApp + leftApp + leftApp + "c" + right + "\r" // arrows in application mode
	e, f := editorOn(keys)
	var got []string
	for {
		line, err := e.readLine("alice> ")
		if err == io.EOF {
			break
		}
		require.NoError(t, err)
		got = append(got, line)
	}
	assert.Equal(t, []string{"/actions", "/minutes finance", "hello", "home", "/actions", "click 1"}, got)
	assert.NotContains(t, strings.Join(got, ""), "\x1b", "no escape code reaches a command")
	assert.Equal(t, f.raw, f.off, "the terminal is given back after every line")
	assert.Equal(t, 7, f.raw, "raw only while a line is typed (six lines, then the end)")
	assert.Contains(t, f.screen.String(), "alice> ", "the editor draws the prompt")
}

// Ctrl-D on an empty line ends the input, as the end of a script does.
func TestLineEditorCtrlD(t *testing.T) {
	t.Parallel()
	e, f := editorOn("who\r\x04")
	line, err := e.readLine("alice> ")
	require.NoError(t, err)
	assert.Equal(t, "who", line)
	_, err = e.readLine("alice> ")
	assert.ErrorIs(t, err, io.EOF)
	assert.Equal(t, f.raw, f.off)
	assert.NoError(t, e.close(), "closing an editor not reading is a no-op")
	assert.Equal(t, f.raw, f.off)
}

// TestPlainLines: input that is not a terminal (a pipe, a script, a test)
// is read line by line, as it is, escape codes and all (a CRLF ending is
// a line ending too); the
// prompt, when asked for, is printed as it is.
func TestPlainLines(t *testing.T) {
	t.Parallel()
	var out bytes.Buffer
	p := newPlainLines(strings.NewReader("/actions\r\nclick 1\n\x1b[Ahome"), &out)
	var got []string
	for {
		line, err := p.readLine("> ")
		if err == io.EOF {
			break
		}
		require.NoError(t, err)
		got = append(got, line)
	}
	assert.Equal(t, []string{"/actions", "click 1", "\x1b[Ahome"}, got)
	assert.Equal(t, "> > > > ", out.String())
}

func TestKeyReader(t *testing.T) {
	t.Parallel()
	tests := []struct{ name, in, want string }{
		{"plain text untouched", "click 1\r", "click 1\r"},
		{"tmux Home and End", "a\x1b[1~b\x1b[4~", "a\x1b[Hb\x1b[F"},
		{"rxvt Home and End", "\x1b[7~\x1b[8~", "\x1b[H\x1b[F"},
		{"application mode", "\x1bOH\x1bOF\x1bOA\x1bOB\x1bOC\x1bOD", "\x1b[H\x1b[F\x1b[A\x1b[B\x1b[C\x1b[D"},
		{"already known", "\x1b[A\x1b[H\x1b[3~", "\x1b[A\x1b[H\x1b[3~"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := io.ReadAll(keyReader{strings.NewReader(tt.in)})
			require.NoError(t, err)
			assert.Equal(t, tt.want, string(got))
		})
	}
}
