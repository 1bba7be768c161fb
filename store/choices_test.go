package store

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func choicesCases() []conformanceCase {
	return []conformanceCase{
		{"follow choices: defaults, set, one field at a time", false, testFollowChoices},
		{"follow language: ORG_LANGUAGE until chosen, kept, gone with the follow", false, testFollowLanguage},
	}
}

func testFollowChoices(t *testing.T, e engine) {
	s := open(t, e.newURL(t))
	ctx := t.Context()
	_, err := s.Follow(ctx, Follow{ChannelID: "C1", Committee: "Finance", CommitteeKey: "finance", By: "U1"})
	require.NoError(t, err)
	d, err := ParseFollowDefaults("approvals,digest,briefs")
	require.NoError(t, err)

	fs, err := s.FollowsInChannel(ctx, "C1")
	require.NoError(t, err)
	require.Len(t, fs, 1)
	assert.Equal(t, FollowChoices{}, fs[0].Choices, "a new follow has the organisation's defaults")
	assert.False(t, d.Hears(fs[0].Choices, HearDrafts), "FOLLOW_DEFAULTS leaves drafts out")
	assert.True(t, d.Hears(fs[0].Choices, HearApprovals))

	ok, err := s.SetFollowChoice(ctx, "C1", "finance", HearDrafts, true)
	require.NoError(t, err)
	require.True(t, ok)
	ok, err = s.SetFollowChoice(ctx, "C1", "finance", HearApprovals, false)
	require.NoError(t, err)
	require.True(t, ok)
	fs, err = s.AllFollows(ctx)
	require.NoError(t, err)
	assert.True(t, d.Hears(fs[0].Choices, HearDrafts))
	assert.False(t, d.Hears(fs[0].Choices, HearApprovals))
	assert.True(t, d.Hears(fs[0].Choices, HearDigest), "left as it was")
	assert.Nil(t, fs[0].Choices.Digest)

	ok, err = s.SetFollowChoice(ctx, "C1", "events", HearDrafts, false)
	require.NoError(t, err)
	assert.False(t, ok, "no such follow")
	_, err = s.SetFollowChoice(ctx, "C1", "finance", "drafts; DROP TABLE follows", false)
	assert.ErrorIs(t, err, ErrInvalid)
	_, err = ParseFollowDefaults("drafts,gossip")
	assert.ErrorContains(t, err, `has "gossip", which is not one of`)
}

func testFollowLanguage(t *testing.T, e engine) {
	s := open(t, e.newURL(t))
	ctx := t.Context()
	_, err := s.Follow(ctx, Follow{ChannelID: "C1", Committee: "Finance", CommitteeKey: "finance", By: "U1", Language: "fr"})
	require.NoError(t, err)
	fs, err := s.FollowsInChannel(ctx, "C1")
	require.NoError(t, err)
	require.Len(t, fs, 1)
	assert.Empty(t, fs[0].Language, "a new follow speaks ORG_LANGUAGE: Follow ignores Language")

	ok, err := s.SetFollowLanguage(ctx, "C1", "finance", "de")
	require.NoError(t, err)
	require.True(t, ok)
	fs, err = s.AllFollows(ctx)
	require.NoError(t, err)
	assert.Equal(t, "de", fs[0].Language)

	ok, err = s.SetFollowLanguage(ctx, "C1", "events", "de")
	require.NoError(t, err)
	assert.False(t, ok, "no such follow")

	// Unfollowing and following again starts afresh.
	_, err = s.Unfollow(ctx, "C1", "finance")
	require.NoError(t, err)
	_, err = s.Follow(ctx, Follow{ChannelID: "C1", Committee: "Finance", CommitteeKey: "finance", By: "U1"})
	require.NoError(t, err)
	fs, err = s.FollowsInChannel(ctx, "C1")
	require.NoError(t, err)
	assert.Empty(t, fs[0].Language)
}
