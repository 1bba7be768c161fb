package topics

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/recordsbot/recordsbot/store"
)

func TestParse(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		typed string
		err   error
	}{
		{"library levy", nil},
		{`"Riverside site" -parking committee:planning`, nil},
		{"", ErrEmpty},
		{"   ", ErrEmpty},
		{"-levy", ErrEmpty},
		{"committee:finance", ErrEmpty},
		{"a an", ErrTooBroad},
		{`"a b"`, ErrTooBroad},
		{"tax", nil},
		{strings.Repeat("levy ", 41), ErrTooLong},
	} {
		_, err := Parse(c.typed)
		assert.ErrorIs(t, err, c.err, "Parse(%q)", c.typed)
		if c.err == nil {
			assert.NoError(t, err, "Parse(%q)", c.typed)
		}
	}
}

func TestMatchText(t *testing.T) {
	t.Parallel()
	item := NewText("4. Library Levies: the Riverside site — parking and café")
	for typed, want := range map[string]bool{
		"library levy":            true,
		"LIBRARY":                 true,
		`"riverside site"`:        true,
		`"site riverside"`:        false,
		"library -parking":        false,
		"library -bus":            true,
		"cafe":                    true,
		"school transport":        false,
		"libraries":               true,
		`library -"riverside"`:    false,
		"levy committee:whatever": true, // the committee is the caller's to test
	} {
		q, err := Parse(typed)
		require.NoError(t, err, typed)
		assert.Equal(t, want, MatchText(q, item), "MatchText(%q)", typed)
		if want {
			assert.True(t, Screen(q, item), "Screen never rejects a match: %q", typed)
		}
	}
}

// TestScreenKeepsWhatTheIndexMatches: every word the index stems alike
// passes the screen, over a real index on the same words.
func TestScreenKeepsWhatTheIndexMatches(t *testing.T) {
	t.Parallel()
	s, err := store.Open(t.Context(), "sqlite::memory:")
	require.NoError(t, err)
	t.Cleanup(func() { _ = s.Close() })
	pairs := [][2]string{{"levy", "levies"}, {"policy", "policies"}, {"cry", "cries"}, {"organise", "organisation"},
		{"budget", "budgeting"}, {"happy", "happiness"}, {"run", "running"}, {"tax", "taxes"}, {"bus", "buses"}}
	for i, p := range pairs {
		id := fmt.Sprint("m", i)
		require.NoError(t, s.IndexMinutes(t.Context(), store.MinutesDoc{MeetingID: id, Title: "T", Committee: "C", Date: time.Now(), Body: "we " + p[1] + " here"}))
		q, err := Parse(p[0])
		require.NoError(t, err)
		hit, err := s.MatchMinutes(t.Context(), id, q.MinutesQuery)
		require.NoError(t, err)
		if hit != nil {
			assert.True(t, Screen(q, NewText("we "+p[1]+" here")), "the index matches %q in %q: the screen must keep it", p[0], p[1])
		}
	}
	q, _ := Parse("library")
	assert.False(t, Screen(q, NewText("The budget was approved")))
}

func TestServiceAdd(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	s, err := store.Open(ctx, "sqlite::memory:")
	require.NoError(t, err)
	t.Cleanup(func() { _ = s.Close() })
	svc := &Service{Store: s, Index: s, Limits: Limits{PerPerson: 2, PerChannel: 1}}
	me := Owner{UserID: "U1"}

	w, existed, err := svc.Add(ctx, me, "U1", "  library   levy ")
	require.NoError(t, err)
	assert.False(t, existed)
	assert.Equal(t, "library levy", w.Query)
	_, existed, err = svc.Add(ctx, me, "U1", "Library Levy")
	require.NoError(t, err)
	assert.True(t, existed)
	_, _, err = svc.Add(ctx, me, "U1", "school transport")
	require.NoError(t, err)
	_, _, err = svc.Add(ctx, me, "U1", "riverside")
	assert.ErrorIs(t, err, store.ErrTopicLimit)
	_, _, err = svc.Add(ctx, Owner{ChannelID: "C1"}, "U1", "riverside")
	require.NoError(t, err)
	_, _, err = svc.Add(ctx, Owner{ChannelID: "C1"}, "U1", "library")
	assert.ErrorIs(t, err, store.ErrTopicLimit, "a channel's own limit")

	list, err := svc.Of(ctx, me)
	require.NoError(t, err)
	assert.Len(t, list, 2)
	_, ok, err := svc.Stop(ctx, Owner{UserID: "U2"}, w.ID)
	require.NoError(t, err)
	assert.False(t, ok)
	_, ok, err = svc.Stop(ctx, me, w.ID)
	require.NoError(t, err)
	assert.True(t, ok)
}

func TestServiceRefusesWhatMatchesMostMinutes(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	s, err := store.Open(ctx, "sqlite::memory:")
	require.NoError(t, err)
	t.Cleanup(func() { _ = s.Close() })
	for i := range broadMinDocs {
		body := "The committee met and approved the minutes."
		if i%5 == 0 {
			body += " The library levy was discussed."
		}
		require.NoError(t, s.IndexMinutes(ctx, store.MinutesDoc{MeetingID: fmt.Sprint("m", i), Title: "Meeting", Committee: "C", Date: time.Now(), Body: body}))
	}
	svc := &Service{Store: s, Index: s, Limits: DefaultLimits}
	_, _, err = svc.Add(ctx, Owner{UserID: "U1"}, "U1", "committee approved")
	assert.True(t, errors.Is(err, ErrTooBroad), "in every minutes: %v", err)
	assert.True(t, errors.Is(err, ErrTooCommon), "refused for being common, not short: %v", err)
	_, _, err = svc.Add(ctx, Owner{UserID: "U1"}, "U1", "library levy")
	assert.NoError(t, err, "in a fifth of them")
}

// BenchmarkScreen1000 is the in-memory half of matching one newly visible
// minutes document (5 kB) against 1,000 watches: reading the text once,
// then screening every watch.
func BenchmarkScreen1000(b *testing.B) {
	body := strings.Repeat("The committee reviewed the budget for the coming year and the insurance renewal. ", 60)
	words := []string{"library", "levy", "transport", "riverside", "parking", "budget", "hall", "trees", "grant", "audit",
		"insurance", "quorum", "volunteer", "lighting", "cleaning", "signatories", "reserves", "youth", "schools", "website"}
	qs := make([]Query, 1000)
	for i := range qs {
		q, err := Parse(words[i%20] + " " + words[(i/20)%20])
		require.NoError(b, err)
		qs[i] = q
	}
	b.ReportAllocs()
	for b.Loop() {
		t := NewText(body)
		n := 0
		for _, q := range qs {
			if Screen(q, t) {
				n++
			}
		}
		_ = n
	}
}

// recordingStore is a Store that notes what was added through it.
type recordingStore struct {
	Store
	added []string
}

func (r *recordingStore) AddTopicWatch(ctx context.Context, w store.TopicWatch, limit int) (store.TopicWatch, bool, error) {
	r.added = append(r.added, w.Query)
	return r.Store.AddTopicWatch(ctx, w, limit)
}

// WithStore puts the domain over another store (the bot's, which writes
// the audit trail), keeping its limits and index and leaving the service
// it came from as it was.
func TestWithStoreKeepsTheRules(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	s, err := store.Open(ctx, "sqlite::memory:")
	require.NoError(t, err)
	t.Cleanup(func() { _ = s.Close() })
	base := &Service{Store: s, Index: s, Limits: Limits{PerPerson: 1, PerChannel: 1}}
	rec := &recordingStore{Store: s}
	svc := base.WithStore(rec)

	_, _, err = svc.Add(ctx, Owner{UserID: "U1"}, "U1", "library levy")
	require.NoError(t, err)
	assert.Equal(t, []string{"library levy"}, rec.added, "added through the store handed in")
	_, _, err = svc.Add(ctx, Owner{UserID: "U1"}, "U1", "parking")
	assert.ErrorIs(t, err, store.ErrTopicLimit, "the limits kept")
	assert.Same(t, Store(s), base.Store, "the original service unchanged")
}
