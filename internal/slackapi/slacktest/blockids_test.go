package slacktest

import (
	"testing"

	"github.com/slack-go/slack"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func section(id, text string) slack.Block {
	return slack.NewSectionBlock(slack.NewTextBlockObject(slack.MarkdownType, text, false, false), nil, nil, slack.SectionBlockOptionBlockID(id))
}

// An update that sends a block_id of the version it replaces is noted,
// where and which; one under new block_ids is not.
func TestBlockIDReuseNotesAnUpdateThatSendsABlockIDAgain(t *testing.T) {
	t.Parallel()
	srv, api := newTestServer(t)
	ctx := t.Context()
	channel, ts, err := api.PostMessageContext(ctx, "C0GENERAL", slack.MsgOptionBlocks(section("a1", "first")))
	require.NoError(t, err)

	_, _, _, err = api.UpdateMessageContext(ctx, channel, ts, slack.MsgOptionBlocks(section("a2", "second")))
	require.NoError(t, err)
	assert.Empty(t, srv.BlockIDReuse(), "a new block_id in the new version")

	_, _, _, err = api.UpdateMessageContext(ctx, channel, ts, slack.MsgOptionBlocks(section("a2", "third")))
	require.NoError(t, err)
	assert.Equal(t, []string{"chat.update of " + ts + ": block_id a2"}, srv.BlockIDReuse())

	srv.ClearBlockIDReuse()
	assert.Empty(t, srv.BlockIDReuse())
}

// A modal's input keeps its block_id from one version to the next, as
// Slack keeps what was typed in it; any other block wants a new one.
func TestBlockIDReuseLetsAModalInputKeepItsBlockID(t *testing.T) {
	t.Parallel()
	srv, api := newTestServer(t)
	ctx := t.Context()
	modal := func(title, sectionID string) slack.ModalViewRequest {
		words := slack.NewPlainTextInputBlockElement(nil, "words")
		return slack.ModalViewRequest{
			Type:   slack.VTModal,
			Title:  slack.NewTextBlockObject(slack.PlainTextType, title, false, false),
			Submit: slack.NewTextBlockObject(slack.PlainTextType, "Search", false, false),
			Blocks: slack.Blocks{BlockSet: []slack.Block{
				section(sectionID, title),
				slack.NewInputBlock("query", slack.NewTextBlockObject(slack.PlainTextType, "Words", false, false), nil, words),
			}},
		}
	}
	v, err := api.OpenViewContext(ctx, srv.NewTrigger(alice.ID), modal("Search", "s1"))
	require.NoError(t, err)

	_, err = api.UpdateViewContext(ctx, modal("Results", "s2"), "", "", v.ID)
	require.NoError(t, err)
	assert.Empty(t, srv.BlockIDReuse(), "the input kept its block_id, the section took a new one")

	_, err = api.UpdateViewContext(ctx, modal("More", "s2"), "", "", v.ID)
	require.NoError(t, err)
	assert.Equal(t, []string{"views.update of " + v.ID + ": block_id s2"}, srv.BlockIDReuse())
}
