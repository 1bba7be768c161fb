// Package remindtest is the reminder tests' organisation, shared by the
// job's own tests (package remind) and the bot's tests of the buttons on a
// reminder DM: a small dataset whose deadlines sit on both sides of every
// edge of the reminder window seen from Now, and the outline of a
// reminder as Slack holds it. Tests only: nothing in the binary imports
// it.
package remindtest

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/recordsbot/recordsbot/actions"
	"github.com/recordsbot/recordsbot/apiclient/recordstest"
)

// Now is when the reminder tests run: a Wednesday morning, so the window
// of three days ends on Saturday 21 November.
var Now = time.Date(2026, 11, 18, 10, 0, 0, 0, time.UTC)

// UserMap is USER_MAP naming Dee, whom the records know by name only.
func UserMap() actions.UserMap {
	return actions.NewUserMap(map[string]string{"Dee Mapped": "U0DEE"})
}

// Dataset is the organisation: four people in Slack (Dee matched only
// through UserMap), one assignee nobody in Slack, and actions due on each
// side of the window's edges.
func Dataset() recordstest.Dataset {
	date := func(day int) time.Time { return time.Date(2026, 11, day, 0, 0, 0, 0, time.UTC) }
	at := func(day, hour, minute int) time.Time { return time.Date(2026, 11, day, hour, minute, 0, 0, time.UTC) }
	act := func(id, name, email, status string, due time.Time, dateOnly bool) recordstest.Action {
		return recordstest.Action{ID: id, Title: "Task " + id, Status: status, AssigneeName: name, AssigneeEmail: email, Deadline: due, DateOnly: dateOnly}
	}
	return recordstest.Dataset{
		People: []recordstest.Person{
			{Name: "Alice Adams", Email: "alice@example.org", SlackID: "U0ALICE"},
			{Name: "Bob Brown", Email: "bob@example.org", SlackID: "U0BOB"},
			{Name: "Carol Chen", Email: "carol@example.org", SlackID: "U0CAROL"},
			// Known to the records by name only: matched through USER_MAP.
			{Name: "Dee Mapped", SlackID: "U0DEE"},
		},
		Actions: []recordstest.Action{
			act("A-1", "Alice Adams", "alice@example.org", "open", date(10), true),              // overdue
			act("A-2", "Alice Adams", "alice@example.org", "in_progress", date(21), true),       // last day of the window
			act("A-3", "Alice Adams", "alice@example.org", "open", date(22), true),              // the day after it
			act("A-4", "Alice Adams", "alice@example.org", "complete", date(1), true),           // done
			act("A-5", "Bob Brown", "bob@example.org", "open", date(18), true),                  // due today, not overdue
			act("A-6", "Bob Brown", "bob@example.org", "open", at(18, 9, 0), false),             // an hour overdue
			act("A-7", "Bob Brown", "bob@example.org", "deferred", date(1), true),               // not to do
			act("A-8", "Carol Chen", "carol@example.org", "open", time.Time{}, false),           // no deadline
			act("A-9", "Una Known", "una@nowhere.example", "open", date(17), true),              // nobody in Slack
			act("A-10", "Dee Mapped", "", "open", at(20, 17, 0), false),                         // due soon
			act("A-11", "Carol Chen", "carol@example.org", "open", at(21, 23, 59), false),       // the window's last minute
			act("A-12", "Carol Chen", "carol@example.org", "in_progress", date(22), true),       // outside
			act("A-13", "", "", "open", date(12), true),                                         // nobody's
			act("A-14", "Alice Adams", "ALICE@example.org", "in_progress", at(19, 8, 0), false), // same person, other case
		},
	}
}

// Outline is a reminder's structure from its blocks: its group labels and
// the IDs of its rows, in order, such as ["Overdue", "A-1", "Due soon",
// "A-2"]. A row's block ID is "action:<id>~<revision>".
func Outline(t *testing.T, blocks []json.RawMessage) []string {
	t.Helper()
	var out []string
	for _, b := range blocks {
		var blk struct {
			BlockID string `json:"block_id"`
			Text    struct {
				Text string `json:"text"`
			} `json:"text"`
		}
		if err := json.Unmarshal(b, &blk); err != nil {
			t.Fatalf("a block of the reminder: %v", err)
		}
		switch {
		case strings.HasPrefix(blk.BlockID, "action:"):
			id := strings.TrimPrefix(blk.BlockID, "action:")
			if i := strings.LastIndex(id, "~"); i >= 0 {
				id = id[:i]
			}
			out = append(out, id)
		case blk.Text.Text == "*Overdue*", blk.Text.Text == "*Due soon*":
			out = append(out, strings.Trim(blk.Text.Text, "*"))
		}
	}
	return out
}
