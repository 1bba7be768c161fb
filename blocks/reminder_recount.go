package blocks

import (
	"encoding/json"
	"strconv"
	"strings"

	"github.com/recordsbot/recordsbot/internal/lang"
)

// Block IDs of a reminder DM's own blocks, so a click's redraw can
// recount its opening sentence (RecountReminder). Like a row's, they get
// a render revision ("~rev") each time the message is redrawn
// (ReplaceRow), as Slack wants a new block_id for each version.
const (
	blockReminder = "remind:"
	// blockReminderCount is the opening sentence of a daily or weekly
	// reminder: "remind:count:<overdue>:<due>:<days>[:w]", what it counted
	// when it was sent, rows left off included.
	blockReminderCount = blockReminder + "count:"
	// The group labels; the rows under one belong to it.
	blockReminderAway    = blockReminder + "away"
	blockReminderOverdue = blockReminder + "overdue"
	blockReminderDue     = blockReminder + "due"
)

// reminderSummaryID is the block ID of a reminder's sentence counting c.
func reminderSummaryID(c reminderCount) string {
	id := blockReminderCount + strconv.Itoa(c.Overdue) + ":" + strconv.Itoa(c.Due) + ":" + strconv.Itoa(c.Days)
	if c.Weekly {
		id += ":w"
	}
	return id
}

// parseReminderSummaryID reads reminderSummaryID back, in any revision;
// ok is false for another block.
func parseReminderSummaryID(id string) (c reminderCount, ok bool) {
	rest, ok := strings.CutPrefix(stripRev(id), blockReminderCount)
	if !ok {
		return c, false
	}
	fields := strings.Split(rest, ":")
	if len(fields) == 4 && fields[3] == "w" {
		c.Weekly, fields = true, fields[:3]
	}
	if len(fields) != 3 {
		return reminderCount{}, false
	}
	for i, n := range []*int{&c.Overdue, &c.Due, &c.Days} {
		v, err := strconv.Atoi(fields[i])
		if err != nil || v < 0 {
			return reminderCount{}, false
		}
		*n = v
	}
	return c, true
}

// stripRev is block ID id without its render revision.
func stripRev(id string) string {
	if i := strings.LastIndex(id, revSep); i >= 0 {
		return id[:i]
	}
	return id
}

// RecountReminder returns msg, the blocks of a daily or weekly reminder DM
// as Slack holds them, with its opening sentence ("You have 3 overdue
// actions.") recounted in l: a row shown under Overdue or Due soon whose
// action stillToDo says is no longer to do (completed, cancelled,
// deferred) is no longer counted; rows the DM left off still are. ok is
// false, and out nil, when msg has no sentence to recount: another
// message, the DM after time away (its sentence tells what happened
// meanwhile), or a reminder sent before sentences were recounted.
func RecountReminder(l lang.Lang, msg []json.RawMessage, stillToDo func(actionID string) bool) (out []json.RawMessage, ok bool) {
	at := -1
	var c reminderCount
	group := ""
	for i, raw := range msg {
		id := stripRev(rawBlockID(raw))
		if sc, sok := parseReminderSummaryID(id); sok && at < 0 {
			at, c = i, sc
			continue
		}
		switch id {
		case blockReminderAway, blockReminderOverdue, blockReminderDue:
			group = id
			continue
		}
		actionID, row := strings.CutPrefix(id, BlockActionRow)
		if !row || actionID == "" || stillToDo(actionID) {
			continue
		}
		switch group {
		case blockReminderOverdue:
			c.Overdue--
		case blockReminderDue:
			c.Due--
		}
	}
	if at < 0 {
		return nil, false
	}
	c.Overdue, c.Due = max(c.Overdue, 0), max(c.Due, 0)
	var obj map[string]json.RawMessage
	if json.Unmarshal(msg[at], &obj) != nil {
		return nil, false
	}
	text, err := json.Marshal(mrkdwn(countSentence(l, c)))
	if err != nil {
		// Unreachable: a slack-go text object built here.
		return nil, false
	}
	obj["text"] = text
	summary, err := json.Marshal(obj)
	if err != nil {
		return nil, false
	}
	out = append(make([]json.RawMessage, 0, len(msg)), msg...)
	out[at] = summary
	return out, true
}
