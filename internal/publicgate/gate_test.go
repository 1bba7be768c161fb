package publicgate_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/recordsbot/recordsbot/internal/publicgate"
	"github.com/recordsbot/recordsbot/minutes"
)

// held is a Held whose answers the test sets, counting the reads it is
// asked for.
type held struct {
	meetings, committees map[string]minutes.Known
	err                  error
	reads                int
}

func (h *held) KnownMeeting(_ context.Context, id string) (minutes.Known, error) {
	h.reads++
	return h.meetings[id], h.err
}

func (h *held) KnownCommittee(_ context.Context, typed string) (minutes.Known, error) {
	h.reads++
	return h.committees[typed], h.err
}

func (h *held) ArchiveCursor(_, cursor string) bool { return cursor == "" || cursor == "good" }

// calendar holds one meeting and one committee, and one token; window
// says whether it holds its window's meetings.
type calendar struct{ window bool }

func (calendar) HoldsMeeting(id string) bool      { return id == "cal-1" }
func (calendar) HoldsCommittee(typed string) bool { return typed == "Planning" }
func (calendar) TokenMayOpen(tok string) bool     { return tok == "ours" }
func (c calendar) HoldsWindow() bool              { return c.window }

type budgetKey struct{}

// unheld marks ctx as reading on the unheld budget.
func unheld(ctx context.Context) context.Context {
	return context.WithValue(ctx, budgetKey{}, "unheld")
}

func onUnheld(ctx context.Context) bool { return ctx.Value(budgetKey{}) == "unheld" }

func TestGateAdmitsByWhatTheBotHolds(t *testing.T) {
	t.Parallel()
	h := &held{
		meetings:   map[string]minutes.Known{"real": minutes.KnownYes, "made-up": minutes.KnownNo, "old": minutes.KnownMaybe},
		committees: map[string]minutes.Known{"Finance": minutes.KnownYes, "Nope": minutes.KnownNo, "Dormant": minutes.KnownMaybe},
	}
	g := publicgate.New(publicgate.Config{Held: h, Calendar: calendar{}, Unheld: unheld})
	ctx := t.Context()
	for _, tt := range []struct {
		name       string
		admit      func() (publicgate.Lookup, error)
		notFound   bool
		wantUnheld bool
	}{
		{name: "a meeting held", admit: func() (publicgate.Lookup, error) { return g.Meeting(ctx, "real") }},
		{name: "a meeting the calendar holds", admit: func() (publicgate.Lookup, error) { return g.Meeting(ctx, "cal-1") }},
		{name: "a meeting not in the whole list", admit: func() (publicgate.Lookup, error) { return g.Meeting(ctx, "made-up") }, notFound: true},
		{name: "a meeting past the list held", admit: func() (publicgate.Lookup, error) { return g.Meeting(ctx, "old") }, wantUnheld: true},
		{name: "a committee held", admit: func() (publicgate.Lookup, error) { return g.Committee(ctx, "Finance") }},
		{name: "a committee the calendar holds", admit: func() (publicgate.Lookup, error) { return g.Committee(ctx, "Planning") }},
		{name: "a committee not in the whole list", admit: func() (publicgate.Lookup, error) { return g.Committee(ctx, "Nope") }, notFound: true},
		{name: "a committee past the list held", admit: func() (publicgate.Lookup, error) { return g.Committee(ctx, "Dormant") }, wantUnheld: true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			l, err := tt.admit()
			if tt.notFound {
				assert.ErrorIs(t, err, publicgate.ErrNotFound)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.wantUnheld, onUnheld(l.Context()), "read on the unheld budget")
			assert.Equal(t, tt.wantUnheld, l.Unheld())
		})
	}
	assert.NoError(t, g.Cursor(ctx, "", ""))
	assert.NoError(t, g.Cursor(ctx, "", "good"))
	assert.ErrorIs(t, g.Cursor(ctx, "", "forged"), publicgate.ErrNotFound)
	assert.NoError(t, g.Token(ctx, "ours"))
	assert.ErrorIs(t, g.Token(ctx, "guessed"), publicgate.ErrNotFound)
}

// A calendar feed holds only the meetings of the calendar's window: while
// the calendar holds that window, a feed's lookup of a meeting or
// committee not in it is refused with no read; before, it is admitted as
// any other lookup.
func TestGateFeedLookupsAskTheCalendarWindow(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	h := &held{
		meetings:   map[string]minutes.Known{"real": minutes.KnownYes, "old": minutes.KnownMaybe},
		committees: map[string]minutes.Known{"Finance": minutes.KnownYes, "Dormant": minutes.KnownMaybe},
	}
	g := publicgate.New(publicgate.Config{Held: h, Calendar: calendar{window: true}, Unheld: unheld})
	for _, id := range []string{"real", "old", "made-up"} {
		_, err := g.FeedMeeting(ctx, id)
		assert.ErrorIs(t, err, publicgate.ErrNotFound, "meeting %s is not in the window", id)
	}
	for _, c := range []string{"Finance", "Dormant", "Nope"} {
		_, err := g.FeedCommittee(ctx, c)
		assert.ErrorIs(t, err, publicgate.ErrNotFound, "committee %s is not in the window", c)
	}
	assert.Zero(t, h.reads, "refused from the calendar's window, with no read")
	l, err := g.FeedMeeting(ctx, "cal-1")
	require.NoError(t, err)
	assert.False(t, l.Unheld())
	l, err = g.FeedCommittee(ctx, "Planning")
	require.NoError(t, err)
	assert.False(t, l.Unheld())
	assert.Zero(t, h.reads)

	g = publicgate.New(publicgate.Config{Held: h, Calendar: calendar{window: false}, Unheld: unheld})
	l, err = g.FeedCommittee(ctx, "Dormant")
	require.NoError(t, err, "no window held yet: the minutes domain's list decides")
	assert.True(t, l.Unheld())
	_, err = g.FeedMeeting(ctx, "real")
	require.NoError(t, err)
	assert.Equal(t, 2, h.reads)
}

// An unheld lookup that found nothing is answered from memory for
// MissTTL, with no read; a held one's miss is the domain's to keep.
func TestGateKeepsUnheldMisses(t *testing.T) {
	t.Parallel()
	now := time.Now()
	h := &held{meetings: map[string]minutes.Known{"real": minutes.KnownYes}, err: errors.New("list unreadable")}
	g := publicgate.New(publicgate.Config{Held: h, Unheld: unheld, Now: func() time.Time { return now }})
	ctx := t.Context()

	l, err := g.Meeting(ctx, "gone")
	require.NoError(t, err)
	require.True(t, l.Unheld())
	l.Missed()
	_, err = g.Meeting(ctx, "gone")
	assert.ErrorIs(t, err, publicgate.ErrNotFound, "an unheld miss is kept")

	l, err = g.Meeting(ctx, "real")
	require.NoError(t, err)
	l.Missed()
	_, err = g.Meeting(ctx, "real")
	assert.NoError(t, err, "a held meeting's miss is not the gate's to keep")

	now = now.Add(publicgate.MissTTL)
	_, err = g.Meeting(ctx, "gone")
	assert.NoError(t, err, "asked again after MissTTL")

	assert.ErrorIs(t, g.Token(ctx, "any"), publicgate.ErrNotFound, "no calendar: no private token")
}
