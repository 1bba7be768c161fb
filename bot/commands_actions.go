package bot

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/recordsbot/recordsbot/apiclient"
	"github.com/recordsbot/recordsbot/blocks"
)

// actionsQuery is what /actions was asked for. It is also carried, as JSON,
// in the value of the "Show more" button, so paging needs no server state.
type actionsQuery struct {
	Who     string `json:"w,omitempty"` // Slack user ID; "" = the caller
	Status  string `json:"s,omitempty"` // a status, "all", or "" for open and in progress
	Overdue bool   `json:"d,omitempty"`
	Meeting string `json:"m,omitempty"`
	Offset  int    `json:"o,omitempty"`

	// A status change (/actions complete <id>); not carried in paging.
	verb   apiclient.Status
	target string
}

// verbs are the words /actions accepts for status changes.
var verbs = map[string]apiclient.Status{
	"complete": apiclient.StatusComplete, "done": apiclient.StatusComplete, "close": apiclient.StatusComplete,
	"start": apiclient.StatusInProgress, "defer": apiclient.StatusDeferred,
	"cancel": apiclient.StatusCancelled, "reopen": apiclient.StatusOpen,
}

// slackUserID matches a Slack user ID, as a button's page state carries it.
var slackUserID = regexp.MustCompile(`^[UW][A-Z0-9]+$`)

// parseActionsText parses the text after /actions, decoded at the edge
// (see command). ok is false when the text asks for help or was not
// understood; note then says what was wrong.
func parseActionsText(t commandText) (q actionsQuery, note string, ok bool) {
	fields := t.Words
	if len(fields) == 0 {
		return q, "", true
	}
	first := strings.ToLower(fields[0].Text)
	if first == "help" || first == "?" {
		return q, "", false
	}
	if st, isVerb := verbs[first]; isVerb {
		id := strings.Trim(commandText{Plain: strings.TrimSpace(t.Plain[len(fields[0].Text):]), Words: fields[1:]}.argument(), "`'\"")
		if id == "" && apiclient.Status(first).Valid() {
			// "/actions complete" alone lists completed actions.
			q.Status = first
			return q, "", true
		}
		if id == "" && first == "done" {
			q.Status = string(apiclient.StatusComplete)
			return q, "", true
		}
		if id == "" {
			return q, fmt.Sprintf("`/actions %s` needs the action's ID, like `/actions %s 42`.", first, first), false
		}
		q.verb, q.target = st, id
		return q, "", true
	}
	for i, f := range fields {
		lf := strings.ToLower(f.Text)
		switch {
		case f.UserID != "":
			q.Who = f.UserID
		case strings.HasPrefix(f.Text, "@"):
			return q, fmt.Sprintf("I can't tell who `%s` is. Pick the person from Slack's autocomplete when you type @, so I get their ID.", blocks.Escape(f.Text)), false
		case lf == "overdue":
			q.Overdue = true
		case lf == "all":
			q.Status = "all"
		case lf == "in-progress" || lf == "inprogress" || lf == "started":
			q.Status = string(apiclient.StatusInProgress)
		case lf == "mine" || lf == "my":
		case lf == "meeting":
			rest := commandText{Words: fields[i+1:]}
			var texts []string
			for _, w := range rest.Words {
				texts = append(texts, w.Text)
			}
			rest.Plain = strings.Join(texts, " ")
			if rest.Plain == "" {
				return q, "`/actions meeting` needs a meeting ID or reference, like `/actions meeting FIN-2026-07`.", false
			}
			q.Meeting = rest.argument()
			return q, "", true
		case apiclient.Status(lf).Valid():
			q.Status = lf
		default:
			return q, fmt.Sprintf("I didn't understand `%s`.", blocks.Escape(f.Text)), false
		}
	}
	return q, "", true
}

func (s *Server) commandActions(ctx context.Context, cmd command) *reply {
	q, note, ok := parseActionsText(cmd.Args)
	if !ok {
		return ephemeral(blocks.Help("/actions", note))
	}
	if q.verb != "" {
		return s.commandSetStatus(ctx, cmd.UserID, q.target, q.verb)
	}
	return s.actionsPage(ctx, cmd.UserID, q, nil)
}

// actionsPage builds one page of the list q asks for, as seen by caller.
// Actions in changed were just changed by a click on this page: they stay
// on it, annotated, even when their new status no longer matches q, so the
// clicker sees what happened.
func (s *Server) actionsPage(ctx context.Context, caller string, q actionsQuery, changed map[string]*blocks.Change) *reply {
	me, meErr := s.users.lookup(ctx, caller)
	owner, ownerErr := me, meErr
	if q.Who != "" && q.Who != caller {
		owner, ownerErr = s.users.lookup(ctx, q.Who)
	}
	var meeting *apiclient.Meeting
	if q.Meeting != "" {
		m, err := s.deps.Records.GetMeeting(ctx, q.Meeting)
		if err != nil {
			if isNotFound(err) {
				return notice(fmt.Sprintf(":mag: I couldn't find a meeting `%s`. Try `/meetings` to see recent ones.", blocks.Escape(q.Meeting)))
			}
			return notice(s.userMessage(ctx, "actions for meeting", err))
		}
		meeting = m
	}

	var fetch apiclient.Status
	if q.Status != "" && q.Status != "all" {
		fetch = apiclient.Status(q.Status)
	}
	list, err := s.actions.get(ctx, fetch)
	if err != nil {
		return notice(s.userMessage(ctx, "list actions", err))
	}

	now := s.deps.Now()
	admin := s.isAdmin(caller)
	var picked []*apiclient.Action
	for i := range list.Actions {
		a := &list.Actions[i]
		if !q.wantStatus(a.Status) && changed[a.ID] == nil {
			continue
		}
		if meeting != nil {
			if a.MeetingID != meeting.ID && (meeting.Reference == "" || a.MeetingID != meeting.Reference) {
				continue
			}
		} else if !owner.owns(a.Assignee) {
			continue
		}
		if q.Overdue && !overdue(a, now) && changed[a.ID] == nil {
			continue
		}
		picked = append(picked, a)
	}
	if len(picked) == 0 && meeting == nil && !owner.mapped() {
		if ownerErr != nil {
			return notice(":warning: I couldn't look up that Slack profile right now, so I can't match it to the records. Please try again in a minute.")
		}
		return notice(unmappedText(owner.ID == caller))
	}
	sortActionsKeeping(picked, now, changed)

	total := len(picked)
	if q.Offset < 0 || q.Offset >= total {
		q.Offset = 0
	}
	end := min(q.Offset+s.cfg.PageSize, total)
	l := blocks.ActionList{
		Title:     q.title(owner, meeting, caller),
		Offset:    q.Offset,
		Total:     total,
		Empty:     q.empty(owner.ID == caller),
		Truncated: list.Truncated,
	}
	pageCtx := q.context()
	for _, a := range picked[q.Offset:end] {
		r := s.actionRow(a, now, admin || me.owns(a.Assignee), owner.ID != caller || meeting != nil, changed[a.ID])
		r.Context = pageCtx
		l.Rows = append(l.Rows, r)
	}
	if end < total {
		next := q
		next.Offset = end
		if b, err := json.Marshal(next); err == nil {
			l.MoreValue = string(b)
		}
	}
	return ephemeral(blocks.Actions(l))
}

// context encodes q for the status buttons of its rows, so a click on an
// ephemeral list (whose blocks Slack does not send back) can redraw the
// same page. It is a URL query, which never contains '|'.
func (q actionsQuery) context() string {
	v := url.Values{}
	if q.Who != "" {
		v.Set("w", q.Who)
	}
	if q.Status != "" {
		v.Set("s", q.Status)
	}
	if q.Overdue {
		v.Set("d", "1")
	}
	if q.Meeting != "" {
		v.Set("m", q.Meeting)
	}
	if q.Offset > 0 {
		v.Set("o", strconv.Itoa(q.Offset))
	}
	if len(v) == 0 {
		return "-" // the default list; "" would mean "no page to redraw"
	}
	return v.Encode()
}

// parseContext is the inverse of context.
func parseContext(s string) (actionsQuery, bool) {
	var q actionsQuery
	if s == "-" {
		return q, true
	}
	v, err := url.ParseQuery(s)
	if err != nil || s == "" {
		return q, false
	}
	q.Who, q.Status, q.Overdue, q.Meeting = v.Get("w"), v.Get("s"), v.Get("d") == "1", v.Get("m")
	q.Offset, _ = strconv.Atoi(v.Get("o"))
	if q.Who != "" && !slackUserID.MatchString(q.Who) {
		return q, false
	}
	if q.Status != "" && q.Status != "all" && !apiclient.Status(q.Status).Valid() {
		return q, false
	}
	return q, true
}

func (q actionsQuery) wantStatus(st apiclient.Status) bool {
	switch q.Status {
	case "all":
		return true
	case "":
		return st == apiclient.StatusOpen || st == apiclient.StatusInProgress
	}
	return string(st) == q.Status
}

func (q actionsQuery) title(owner identity, m *apiclient.Meeting, caller string) string {
	what := "open"
	switch {
	case q.Overdue:
		what = "overdue"
	case q.Status == "all":
		what = "all"
	case q.Status != "":
		what = statusWords(apiclient.Status(q.Status))
	}
	if m != nil {
		name := m.Title
		if name == "" {
			name = m.ID
		}
		return fmt.Sprintf("Actions from %s (%s)", name, what)
	}
	if owner.ID == caller {
		if what == "all" {
			return "All your actions"
		}
		return "Your " + what + " actions"
	}
	name := owner.Name
	if name == "" {
		name = owner.ID
	}
	return fmt.Sprintf("%s's %s actions", name, what)
}

func (q actionsQuery) empty(mine bool) string {
	if mine && q.Status == "" && !q.Overdue && q.Meeting == "" {
		return "Nothing open. :tada: If you expected some, your records identity may differ from your Slack email: ask the app's admin to add you to `USER_MAP`."
	}
	return "No actions match."
}

func unmappedText(self bool) string {
	if !self {
		return ":bust_in_silhouette: I can't match that person to the records: Slack doesn't share their email with recordsbot and `USER_MAP` has no entry for them."
	}
	return ":bust_in_silhouette: I can't match you to the records yet: Slack doesn't share your email with recordsbot and `USER_MAP` has no entry for you. " +
		"Ask the app's admin to add `your-records-name-or-email=<your Slack member ID>` to `USER_MAP`."
}

func statusWords(st apiclient.Status) string {
	switch st {
	case apiclient.StatusInProgress:
		return "in-progress"
	case apiclient.StatusComplete:
		return "completed"
	}
	return string(st)
}

// overdue reports whether a is still to do and past its deadline. A
// date-only deadline is due at the end of that day (UTC).
func overdue(a *apiclient.Action, now time.Time) bool {
	return Due(a, now, time.UTC, time.UTC, 0) == Overdue // the one rule; see due.go
}

// sortActions orders overdue first, then by deadline, then undated.
func sortActions(as []*apiclient.Action, now time.Time) { sortActionsKeeping(as, now, nil) }

// sortActionsKeeping sorts like sortActions, but an action just changed by
// a click on the page keeps the place it had before: it sorts as if it were
// still to do, so redrawing the page does not move the row under the
// clicker's pointer.
func sortActionsKeeping(as []*apiclient.Action, now time.Time, changed map[string]*blocks.Change) {
	late := func(a *apiclient.Action) bool {
		if changed[a.ID] != nil {
			still := *a
			still.Status = apiclient.StatusOpen
			return overdue(&still, now)
		}
		return overdue(a, now)
	}
	sort.SliceStable(as, func(i, j int) bool {
		a, b := as[i], as[j]
		if oa, ob := late(a), late(b); oa != ob {
			return oa
		}
		if za, zb := a.Deadline.IsZero(), b.Deadline.IsZero(); za != zb {
			return zb
		}
		if !a.Deadline.Equal(b.Deadline) {
			return a.Deadline.Before(b.Deadline)
		}
		return a.ID < b.ID
	})
}

// actionRow is the row of a as shown to a reader.
func (s *Server) actionRow(a *apiclient.Action, now time.Time, canChange, showAssignee bool, changed *blocks.Change) blocks.ActionRow {
	r := actionRow(a, now, canChange, showAssignee, changed)
	r.Rev = s.revs.next()
	return r
}

// actionRow is Server.actionRow for code that has no Server, such as the
// reminder job, whose rows must match the ones a click redraws.
func actionRow(a *apiclient.Action, now time.Time, canChange, showAssignee bool, changed *blocks.Change) blocks.ActionRow {
	meeting := a.MeetingTitle
	if meeting == "" {
		meeting = a.MeetingID
	}
	r := blocks.ActionRow{
		ID:              a.ID,
		Title:           a.Title,
		Status:          string(a.Status),
		Deadline:        a.Deadline,
		DeadlineHasTime: a.DeadlineHasTime,
		Overdue:         overdue(a, now),
		Meeting:         meeting,
		Committee:       a.Committee,
		CanChange:       canChange,
		Changed:         changed,
	}
	if showAssignee {
		r.Assignee = a.Assignee.String()
	}
	return r
}
