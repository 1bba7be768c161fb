package minutes

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestArchiveCursorRoundTrip(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC)
	cs := newCursorSealer(CursorKey("sk_test"))
	c := archiveCursor{Next: "/api/v1/meetings?page=5", Skip: 7}
	s := cs.seal(c, "finance", now)
	require.NotEmpty(t, s)

	got, err := cs.open(s, "finance", now.Add(CursorLifetime-time.Second))
	require.NoError(t, err)
	assert.Equal(t, c, got)

	other := newCursorSealer(CursorKey("sk_test"))
	_, err = other.open(s, "finance", now)
	assert.NoError(t, err, "another replica with the same secret accepts it")

	for name, open := range map[string]func() error{
		"expired":           func() error { _, err := cs.open(s, "finance", now.Add(CursorLifetime)); return err },
		"another committee": func() error { _, err := cs.open(s, "", now); return err },
		"another secret":    func() error { _, err := newCursorSealer(CursorKey("sk_other")).open(s, "finance", now); return err },
		"over-long":         func() error { _, err := cs.open(strings.Repeat("A", maxCursorLen+1), "", now); return err },
	} {
		assert.ErrorIs(t, open(), ErrBadCursor, name)
	}
	assert.Empty(t, cs.seal(archiveCursor{Next: strings.Repeat("x", maxCursorLen)}, "", now), "too long to carry: no next page")
}

// FuzzArchiveCursor: whatever a reader types as ?after=, opening it never
// panics and never yields a position the bot did not seal; what the bot
// sealed opens to what it sealed.
func FuzzArchiveCursor(f *testing.F) {
	now := time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC)
	cs := newCursorSealer(CursorKey("sk_fuzz"))
	sealed := cs.seal(archiveCursor{Next: "/api/v1/meetings?page=2", Skip: 3}, "", now)
	for _, seed := range []string{"", "x", "%%%", sealed, sealed + "A", sealed[1:], "eyJuIjoiL2FwaS92MS8uLi8uLi9hZG1pbiJ9", strings.Repeat("A", 2000)} {
		f.Add(seed, "/api/v1/meetings?page=9", 4)
	}
	f.Fuzz(func(t *testing.T, typed, next string, skip int) {
		c, err := cs.open(typed, "", now)
		switch {
		case typed == "":
			assert.NoError(t, err)
			assert.Equal(t, archiveCursor{}, c)
		case typed == sealed:
			assert.NoError(t, err)
		default:
			assert.ErrorIs(t, err, ErrBadCursor, "a cursor the bot did not seal: %q", typed)
		}
		want := archiveCursor{Next: next, Skip: skip}
		s := cs.seal(want, "", now)
		if s == "" {
			return // the first page, or too long to carry
		}
		got, err := cs.open(s, "", now)
		if skip > maxSkip {
			assert.ErrorIs(t, err, ErrBadCursor)
			return
		}
		require.NoError(t, err)
		assert.Equal(t, want, got)
	})
}
