package follows_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/recordsbot/recordsbot/apiclient"
	"github.com/recordsbot/recordsbot/follows"
	"github.com/recordsbot/recordsbot/internal/clocktime"
	"github.com/recordsbot/recordsbot/internal/lang"
	"github.com/recordsbot/recordsbot/store"
)

// meetingPages is the records' meetings list, a page per slice: a fake of
// minutes.Service.Meetings.
type meetingPages [][]string

func (p meetingPages) Meetings(_ context.Context, next string) (*apiclient.MeetingPage, error) {
	i := 0
	if next != "" {
		i = int(next[0] - '0')
	}
	page := &apiclient.MeetingPage{}
	for _, c := range p[i] {
		page.Meetings = append(page.Meetings, apiclient.Meeting{Committee: c})
	}
	if i+1 < len(p) {
		page.Next = string(rune('0' + i + 1))
	}
	return page, nil
}

func newService(t *testing.T, rules follows.Rules) (*follows.Service, *store.Store) {
	t.Helper()
	st, err := store.Open(t.Context(), "sqlite://"+filepath.Join(t.TempDir(), "recordsbot.db"))
	require.NoError(t, err)
	t.Cleanup(func() { _ = st.Close() })
	pages := meetingPages{{"Finance", "Facilities"}, {"finance ", "Audit & Risk"}}
	return follows.New(rules, follows.Deps{Store: st, Meetings: pages}), st
}

// TestResolveAndUnfollow: the committee typed, found among the records'
// (a prefix is enough, one name once) and among what a channel follows.
func TestResolveAndUnfollow(t *testing.T) {
	t.Parallel()
	s, _ := newService(t, follows.Rules{})
	ctx := t.Context()
	known, err := s.Committees(ctx, "")
	require.NoError(t, err)
	assert.Equal(t, []string{"Audit & Risk", "Facilities", "Finance"}, known, "every page, each committee once, sorted")
	name, _, err := s.Resolve(ctx, "FIN")
	require.NoError(t, err)
	assert.Equal(t, "Finance", name)
	name, _, err = s.Resolve(ctx, "f")
	require.NoError(t, err)
	assert.Empty(t, name, "a prefix of two names is neither")

	u, err := s.Unfollow(ctx, "C1", "finance")
	require.NoError(t, err)
	assert.Equal(t, follows.NothingFollowed, u.Outcome)
	for _, c := range []string{"Finance", "Facilities"} {
		_, existed, err := s.Follow(ctx, "C1", c, "U1")
		require.NoError(t, err)
		assert.False(t, existed)
	}
	_, existed, err := s.Follow(ctx, "C1", "Finance", "U2")
	require.NoError(t, err)
	assert.True(t, existed)

	cases := []struct {
		typed string
		want  follows.Unfollow
	}{
		{"f", follows.Unfollow{Outcome: follows.Ambiguous, Candidates: []string{"Facilities", "Finance"}}},
		{"audit", follows.Unfollow{Outcome: follows.NotFollowed, Candidates: []string{"Facilities", "Finance"}}},
		{"FIN", follows.Unfollow{Outcome: follows.Unfollowed, Committee: "Finance"}},
		{"fin", follows.Unfollow{Outcome: follows.NotFollowed, Candidates: []string{"Facilities"}}},
	}
	for _, tc := range cases {
		got, err := s.Unfollow(ctx, "C1", tc.typed)
		require.NoError(t, err)
		assert.Equal(t, tc.want, got, tc.typed)
	}
}

// TestChooseAndSetDigest: the boxes ticked become what the channel
// hears; a digest without a slot stays unticked and says so; a time
// ticks the box; off unticks it and keeps the time.
func TestChooseAndSetDigest(t *testing.T) {
	t.Parallel()
	off := clocktime.Weekly{}
	s, st := newService(t, follows.NewRules(follows.Settings{Digest: &off}, lang.English))
	ctx := t.Context()
	_, _, err := s.Follow(ctx, "C1", "Finance", "U1")
	require.NoError(t, err)

	_, err = s.Choose(ctx, "C1", "audit & risk", nil)
	assert.ErrorIs(t, err, follows.ErrNotFollowed)

	got, err := s.Choose(ctx, "C1", "finance", map[string]bool{store.HearApprovals: true, store.HearDigest: true})
	require.NoError(t, err)
	assert.Equal(t, follows.Chosen{Committee: "Finance", Hears: []string{store.HearApprovals}, DigestNeedsTime: true}, got,
		"DIGEST_DEFAULT off: no slot, the box stays unticked")

	fri := clocktime.Weekly{On: true, Day: 5, At: clocktime.Of(16, 30)}
	set, err := s.SetDigest(ctx, "C1", "finance", follows.DigestChoice{Schedule: &fri, Mentions: true})
	require.NoError(t, err)
	assert.Equal(t, follows.DigestSet{Outcome: follows.DigestComes, When: fri, Mentions: true}, set,
		"the box was on all along; it only lacked a slot")
	listed, err := s.InChannel(ctx, "C1")
	require.NoError(t, err)
	require.Len(t, listed, 1)
	assert.Equal(t, map[string]bool{store.HearDrafts: false, store.HearApprovals: true, store.HearDigest: true, store.HearBriefs: false}, listed[0].Hears)

	_, err = s.Choose(ctx, "C1", "finance", map[string]bool{store.HearApprovals: true})
	require.NoError(t, err)
	set, err = s.SetDigest(ctx, "C1", "finance", follows.DigestChoice{Schedule: &fri})
	require.NoError(t, err)
	assert.True(t, set.Ticked, "asking for a time ticks an unticked box, and says so")

	set, err = s.SetDigest(ctx, "C1", "finance", follows.DigestChoice{Schedule: &off})
	require.NoError(t, err)
	assert.Equal(t, follows.DigestSet{Outcome: follows.DigestOff, When: fri}, set, "off keeps the channel's own time")

	set, err = s.SetDigest(ctx, "C1", "finance", follows.DigestChoice{})
	require.NoError(t, err)
	assert.Equal(t, follows.DigestNoSlot, set.Outcome, "the usual time, which is off")

	de, err := lang.Parse("de")
	require.NoError(t, err)
	require.NoError(t, s.SetLanguage(ctx, "C1", "finance", de))
	assert.ErrorIs(t, s.SetLanguage(ctx, "C1", "events", de), follows.ErrNotFollowed)
	fs, err := st.FollowsInChannel(ctx, "C1")
	require.NoError(t, err)
	assert.Equal(t, de, s.Rules().Language(fs[0]))
}
