package blocks

import (
	"strings"
	"testing"
	"time"

	"github.com/slack-go/slack"
	"github.com/stretchr/testify/assert"

	"github.com/recordsbot/recordsbot/actions"
	"github.com/recordsbot/recordsbot/apiclient"
	"github.com/recordsbot/recordsbot/internal/lang"
)

// Every surface shows an action from the one row RowOf builds: a list's
// section, a digest's line and the dry run's plain text say the same
// title (escaped alike in mrkdwn, "Untitled action" when there is none),
// carry the same link, and give the same status and deadline in the
// reader's words.
func TestRowFormsShowTheSameAction(t *testing.T) {
	t.Parallel()
	hostile := apiclient.Action{ID: "A-7", Title: "Pay <!channel> & *fees*\nnow", Status: apiclient.StatusInProgress,
		Deadline: day(2026, 3, 9), Committee: "Finance", MeetingTitle: "Budget meeting", Assignee: apiclient.Person{Name: "Sam <Lee>"}}
	untitled := apiclient.Action{ID: "A-8", Status: apiclient.StatusOpen, Assignee: apiclient.Person{Name: "Sam Lee"}}
	const link = "https://bot.example.org/actions/A-7"
	for _, l := range append(lang.Shipped(), lang.Pseudo) {
		t.Run(l.Code(), func(t *testing.T) {
			t.Parallel()
			r := RowOf(&hostile, actions.ChannelView(actions.Overdue), link, nil)
			section := sectionText(buildRow(l, r, rowTitleMax))
			line, plain := rowLine(l, r), rowPlain(l, r)

			title := "Pay &lt;!channel&gt; &amp; *fees* now"
			assert.Contains(t, section, "*<"+link+"|"+title+">*", "a list's row")
			assert.Contains(t, line, ":red_circle: <"+link+"|"+title+">", "a digest's line")
			assert.True(t, strings.HasPrefix(plain, "Pay <!channel> & *fees* now ("), "plain text keeps the record's text: %s", plain)

			status := statusWord(l, statusInProgress)
			due := Date(l, r.Deadline, false)
			assert.Contains(t, section, status)
			assert.Contains(t, section, l.F("row.due", "date", due))
			assert.Contains(t, plain, status)
			assert.Contains(t, plain, l.F("row.due", "date", plainDate(l, r.Deadline, false)))
			assert.Contains(t, line, l.F("row.line.was_due", "date", due))
			assert.Contains(t, section, l.F("row.assigned_to", "who", "Sam &lt;Lee&gt;"))
			assert.Contains(t, plain, l.F("row.assigned_to", "who", "Sam <Lee>"))
			assert.True(t, strings.HasSuffix(line, ", Sam &lt;Lee&gt;"), "a change's line names the assignee: %s", line)
			assert.NotContains(t, groupedLine(l, r), "Sam", "under the assignee's name it is not said again")

			u := RowOf(&untitled, actions.ChannelView(actions.NotDue), "", nil)
			none := l.T("row.untitled")
			assert.Contains(t, sectionText(buildRow(l, u, rowTitleMax)), "*"+none+"*")
			assert.True(t, strings.HasPrefix(rowLine(l, u), none), rowLine(l, u))
			assert.True(t, strings.HasPrefix(rowPlain(l, u), none+" ("), rowPlain(l, u))
			assert.Contains(t, rowPlain(l, u), l.T("row.no_deadline"))
		})
	}
}

// A finished action's line leaves its deadline out: in a digest's list of
// what was completed, the deadline is no longer news.
func TestRowLineOfAFinishedAction(t *testing.T) {
	t.Parallel()
	done := apiclient.Action{ID: "A-9", Title: "File the return", Status: apiclient.StatusComplete,
		Deadline: time.Date(2026, 2, 20, 17, 0, 0, 0, time.UTC), DeadlineHasTime: true, Assignee: apiclient.Person{Name: "Carol Wu"}}
	assert.Equal(t, "File the return — Carol Wu", rowLine(lang.English, RowOf(&done, actions.ChannelView(actions.NotDue), "", nil)))
	open := done
	open.Status = apiclient.StatusOpen
	assert.Equal(t, "File the return — due <!date^1771606800^{date_short_pretty} at {time}|Feb 20, 2026 at 17:00 UTC>, Carol Wu",
		rowLine(lang.English, RowOf(&open, actions.ChannelView(actions.DueSoon), "", nil)))
}

// sectionText is the text of a row's section.
func sectionText(bl []slack.Block) string {
	return bl[0].(*slack.SectionBlock).Text.Text
}
