package store

import (
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func topicCases() []conformanceCase {
	return []conformanceCase{
		{"topics: watches added, listed, stopped, limited", false, testTopicWatches},
		{"topics: newly visible minutes", false, testNewlyVisibleMinutes},
		{"topics: one document matched", false, testMatchMinutes},
		{"search: exclusions", false, testSearchExclusions},
	}
}

func testTopicWatches(t *testing.T, e engine) {
	ctx := t.Context()
	s := open(t, e.newURL(t))
	w, existed, err := s.AddTopicWatch(ctx, TopicWatch{UserID: "U1", Query: "library levy", CreatedBy: "U1"}, 2)
	require.NoError(t, err)
	assert.False(t, existed)
	assert.NotEmpty(t, w.ID)
	again, existed, err := s.AddTopicWatch(ctx, TopicWatch{UserID: "U1", Query: "  Library   LEVY ", CreatedBy: "U1"}, 2)
	require.NoError(t, err)
	assert.True(t, existed, "the same words in another case and spacing")
	assert.Equal(t, w.ID, again.ID)
	_, _, err = s.AddTopicWatch(ctx, TopicWatch{UserID: "U1", Query: "school transport", CreatedBy: "U1"}, 2)
	require.NoError(t, err)
	_, _, err = s.AddTopicWatch(ctx, TopicWatch{UserID: "U1", Query: "riverside", CreatedBy: "U1"}, 2)
	assert.True(t, errors.Is(err, ErrTopicLimit), "a third over a limit of 2: %v", err)
	ch, _, err := s.AddTopicWatch(ctx, TopicWatch{ChannelID: "C1", Query: "library levy", CreatedBy: "U2"}, 2)
	require.NoError(t, err)
	_, _, err = s.AddTopicWatch(ctx, TopicWatch{Query: "x"}, 2)
	assert.True(t, errors.Is(err, ErrInvalid))

	mine, err := s.TopicWatchesOf(ctx, "U1", "")
	require.NoError(t, err)
	require.Len(t, mine, 2)
	assert.ElementsMatch(t, []string{"library levy", "school transport"}, []string{mine[0].Query, mine[1].Query})
	channel, err := s.TopicWatchesOf(ctx, "", "C1")
	require.NoError(t, err)
	assert.Equal(t, []TopicWatch{ch}, channel)
	all, err := s.AllTopicWatches(ctx)
	require.NoError(t, err)
	assert.Len(t, all, 3)

	_, ok, err := s.StopTopicWatch(ctx, w.ID, "U2", "")
	require.NoError(t, err)
	assert.False(t, ok, "nobody stops another's watch by its ID")
	stopped, ok, err := s.StopTopicWatch(ctx, w.ID, "U1", "")
	require.NoError(t, err)
	assert.True(t, ok)
	assert.Equal(t, "library levy", stopped.Query)
	_, ok, err = s.StopTopicWatch(ctx, w.ID, "U1", "")
	require.NoError(t, err)
	assert.False(t, ok, "stopped twice")
}

func testNewlyVisibleMinutes(t *testing.T, e engine) {
	ctx := t.Context()
	clock := newClock()
	s := open(t, e.newURL(t), WithClock(clock.Now))
	start := clock.Now()
	doc := MinutesDoc{MeetingID: "m1", Title: "Finance", Committee: "Finance", Date: start, Body: "The library levy was discussed.", Draft: true}
	require.NoError(t, s.IndexMinutes(ctx, doc))
	clock.Advance(time.Minute)
	require.NoError(t, s.IndexMinutes(ctx, doc), "read again, still a draft")
	got, err := s.NewlyVisibleMinutes(ctx, time.Time{}, 10)
	require.NoError(t, err)
	require.Len(t, got, 1)
	assert.Equal(t, start.Truncate(time.Millisecond), got[0].VisibleAt, "a draft read again keeps when it became visible")
	assert.Equal(t, "The library levy was discussed.", got[0].Body)
	assert.True(t, got[0].Draft)

	none, err := s.NewlyVisibleMinutes(ctx, got[0].VisibleAt, 10)
	require.NoError(t, err)
	assert.Empty(t, none)

	clock.Advance(time.Minute)
	doc.Draft = false
	require.NoError(t, s.IndexMinutes(ctx, doc))
	got, err = s.NewlyVisibleMinutes(ctx, start, 10)
	require.NoError(t, err)
	require.Len(t, got, 1, "approved: visible anew")
	assert.False(t, got[0].Draft)
	assert.Equal(t, clock.Now().Truncate(time.Millisecond), got[0].VisibleAt)
}

func testMatchMinutes(t *testing.T, e engine) {
	ctx := t.Context()
	s := open(t, e.newURL(t))
	indexAll(t, s, searchDocs())
	hit, err := s.MatchMinutes(ctx, "m2", MinutesQuery{Words: []string{"renewals"}})
	require.NoError(t, err)
	require.NotNil(t, hit, "stemmed as the search stems")
	assert.Equal(t, "Finance Committee, April", hit.Title)
	assert.Contains(t, marked(hit.Snippet), "[renewal]")
	hit, err = s.MatchMinutes(ctx, "m3", MinutesQuery{Phrases: []string{"insurance renewal"}})
	require.NoError(t, err)
	assert.Nil(t, hit, "m3 has both words, not the phrase")
	hit, err = s.MatchMinutes(ctx, "m2", MinutesQuery{Words: []string{"insurance"}, Not: []string{"parks"}})
	require.NoError(t, err)
	assert.Nil(t, hit, "m2 mentions parks")
	hit, err = s.MatchMinutes(ctx, "nope", MinutesQuery{Words: []string{"insurance"}})
	require.NoError(t, err)
	assert.Nil(t, hit)
	for q, want := range map[*MinutesQuery]int{
		{Words: []string{"insurance"}}:                         3,
		{Words: []string{"insurance"}, Not: []string{"parks"}}: 1,
		{Words: []string{"insurance"}, Committee: "finance"}:   2,
		{Words: []string{"budget"}}:                            3,
		{Not: []string{"parks"}}:                               0,
	} {
		n, err := s.CountMinutesMatches(ctx, *q, 10)
		require.NoError(t, err)
		assert.Equal(t, want, n, "count %+v", *q)
	}
	n, err := s.CountMinutesMatches(ctx, MinutesQuery{Words: []string{"insurance"}}, 2)
	require.NoError(t, err)
	assert.Equal(t, 2, n, "counted up to the limit")
	hit, err = s.MatchMinutes(ctx, "m1", MinutesQuery{Not: []string{"parks"}})
	require.NoError(t, err)
	assert.Nil(t, hit, "exclusions alone ask for nothing")
}

func testSearchExclusions(t *testing.T, e engine) {
	s := open(t, e.newURL(t))
	indexAll(t, s, searchDocs())
	assert.ElementsMatch(t, []string{"m1"}, search(t, s, MinutesQuery{Words: []string{"insurance"}, Not: []string{"parks"}}), "m2 and m3 mention parks, m3 in its title")
	assert.ElementsMatch(t, []string{"m2", "m3"}, search(t, s, MinutesQuery{Words: []string{"insurance"}, Not: []string{"deferred to April"}}), "a phrase excluded")
	assert.ElementsMatch(t, []string{"m1", "m2", "m3"}, search(t, s, MinutesQuery{Words: []string{"insurance"}, Not: []string{"zebra"}}))
	assert.Empty(t, search(t, s, MinutesQuery{Not: []string{"parks"}}), "exclusions alone find nothing")
	assert.ElementsMatch(t, []string{"m1", "m2"}, search(t, s, MinutesQuery{Words: []string{"insurance"}, Not: []string{"parks board"}, Committee: "fin"}))
}
