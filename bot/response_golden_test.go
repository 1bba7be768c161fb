package bot

import (
	"flag"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/recordsbot/recordsbot/actions"
	"github.com/recordsbot/recordsbot/blocks"
	"github.com/recordsbot/recordsbot/internal/golden"
	"github.com/recordsbot/recordsbot/internal/lang"
	"github.com/recordsbot/recordsbot/store"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// The bodies the bot posts to a response_url, as golden files. They are
// checked here against the bot's own rules (blocks.CheckMessage) and, by
// .ci/run, against Slack's published type for them (tools/slackcheck:
// response_* files are bolt's RespondArguments).
func TestResponseURLBodiesGolden(t *testing.T) {
	t.Parallel()
	due := time.Date(2026, 11, 20, 0, 0, 0, 0, time.UTC)
	rows := []blocks.ActionRow{
		{ID: "FIN-2026-10/1", Title: "Circulate the Q3 budget & forecast", Status: "complete", Deadline: due,
			Committee: "Finance", CanChange: true, Context: "-", Rev: "mx1.7",
			Changed: &blocks.Change{By: "U0ALICE", At: due.Add(36 * time.Hour), Status: "complete"}},
		{ID: "GOV-2026-10/2", Title: "Return signed declarations", Status: "open", Deadline: due.Add(48 * time.Hour),
			Committee: "Governance", CanChange: true, Context: "-", Rev: "mx1.8"},
	}
	list := blocks.Actions(blocks.ActionList{Title: "Your open actions", Rows: rows, Total: 2})
	own := &actionsUI{dom: actions.New(nil, nil, actions.Config{})}
	cases := []struct {
		name string
		body *reply
	}{
		// A click on an ephemeral list redraws it in place.
		{"response_redraw", func() *reply { r := ephemeral(list); r.ReplaceOriginal = true; return r }()},
		// A slash command's answer after an empty ack: a new message.
		{"response_followup", ephemeral(list)},
		// A click's answer that leaves the message as it was.
		{"response_notice", notice(cantPostHere(lang.English, "channel_not_found", "D0ALICEBOB", "directmessage", "https://bot.example.org/minutes/mtg_1"))},
		// Someone else's actions, refused (ACTIONS_VISIBILITY=own), to a
		// member and to a guest; a guest's follow, refused.
		{"response_refused_member", notice(own.othersRefused(actions.Member{ID: "U0CAROL"}, nil, "U0BOB"))},
		{"response_refused_guest", notice(own.othersRefused(actions.Member{ID: "U0ERIN", Guest: true}, nil, "U0BOB"))},
		{"response_follow_guest", notice(lang.English.T("follow.guest"))},
		// A tick in /minutes following redraws the list in place.
		{"response_following_redraw", func() *reply {
			r := ephemeral(blocks.FollowingMessage(blocks.Following{Options: blocks.HearOptions(lang.English, store.Hearable()), CanChange: true, Rev: "mx2",
				Note: ":white_check_mark: <@U0ALICE> changed it: *Finance* now brings approvals here.",
				Follows: []blocks.FollowRow{{Committee: "Finance", Key: "finance", By: "U0ALICE", Since: due,
					Hears: map[string]bool{store.HearApprovals: true}, DigestOption: store.HearDigest}}}))
			r.ReplaceOriginal = true
			return r
		}()},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			require.NoError(t, blocks.CheckMessage(blocks.Message{Text: tc.body.Text, Blocks: tc.body.Blocks}))
			assertGolden(t, tc.name, tc.body)
		})
	}
}

func assertGolden(t *testing.T, name string, v any) {
	t.Helper()
	golden.AssertJSON(t, name, v, *update)
}
