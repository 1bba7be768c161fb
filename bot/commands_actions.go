package bot

import (
	"context"
	"encoding/json"
	"errors"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/recordsbot/recordsbot/actions"
	"github.com/recordsbot/recordsbot/apiclient"
	"github.com/recordsbot/recordsbot/blocks"
	"github.com/recordsbot/recordsbot/internal/lang"
	"github.com/recordsbot/recordsbot/internal/slackapi"
	"github.com/recordsbot/recordsbot/minutes"
)

// actionsQuery is what /actions was asked for. It is also carried, as JSON,
// in the value of the "Show more" button, so paging needs no server state.
type actionsQuery struct {
	Who     string `json:"w,omitempty"` // Slack user ID; "" = the caller
	Status  string `json:"s,omitempty"` // a status, "all", or "" for open and in progress
	Overdue bool   `json:"d,omitempty"`
	Meeting string `json:"m,omitempty"`
	// Committee is a committee key: the "My actions here" button of a
	// weekly digest lists the caller's actions of that committee.
	Committee string `json:"c,omitempty"`
	Offset    int    `json:"o,omitempty"`

	// A status change (/actions complete <id>); not carried in paging.
	verb   apiclient.Status
	target string
	// history is the action whose audit trail /actions history <id>
	// asks for.
	history string
	// snoozed lists the caller's snoozed actions (/actions snoozed).
	snoozed bool
}

// verbs are the words /actions accepts for status changes.
var verbs = map[string]apiclient.Status{
	"complete": apiclient.StatusComplete, "done": apiclient.StatusComplete, "close": apiclient.StatusComplete,
	"start": apiclient.StatusInProgress, "defer": apiclient.StatusDeferred,
	"cancel": apiclient.StatusCancelled, "reopen": apiclient.StatusOpen,
}

// parseActionsText parses the text after /actions, decoded at the edge
// (see command). Keywords are English or any shipped language's alias
// (lang.Keyword: "/actions en-retard" is "/actions overdue"). ok is false
// when the text asks for help or was not understood; note then says, in
// lg, what was wrong.
func parseActionsText(lg lang.Lang, t commandText) (q actionsQuery, note string, ok bool) {
	fields := t.Words
	if len(fields) == 0 {
		return q, "", true
	}
	typed := strings.ToLower(fields[0].Text)
	first := lang.Keyword(typed)
	if first == "completed" {
		first = string(apiclient.StatusComplete) // a status word ("terminées"), not the verb
		if len(fields) == 1 {
			q.Status = first
			return q, "", true
		}
	}
	if first == "help" || first == "?" {
		return q, "", false
	}
	if first == "snoozed" && len(fields) == 1 {
		q.snoozed = true
		return q, "", true
	}
	if first == "history" {
		return parseHistory(lg, t.afterFirst())
	}
	if st, isVerb := verbs[first]; isVerb {
		return parseStatusChange(lg, typed, first, st, t.afterFirst())
	}
	return parseFilters(lg, fields)
}

// afterFirst is t without its first word: the argument of a keyword.
func (t commandText) afterFirst() commandText {
	return commandText{Plain: strings.TrimSpace(t.Plain[len(t.Words[0].Text):]), Words: t.Words[1:]}
}

// parseHistory parses /actions history <id>: rest is the text after
// "history".
func parseHistory(lg lang.Lang, rest commandText) (q actionsQuery, note string, ok bool) {
	q.history = strings.Trim(rest.argument(), "`'\"")
	if !actions.IsID(q.history) {
		// A person, a channel or a sentence is not an action: the trail
		// holds their settings, time away and follows too, which no
		// history shows.
		return q, lg.T("audit.history.usage"), false
	}
	return q, "", true
}

// parseStatusChange parses /actions <verb> <id>, the verb typed as typed
// (read as the English first, which sets status st); rest is the text
// after it. A verb without an ID that names a status lists the actions in
// that status.
func parseStatusChange(lg lang.Lang, typed, first string, st apiclient.Status, rest commandText) (q actionsQuery, note string, ok bool) {
	id := strings.Trim(rest.argument(), "`'\"")
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
		return q, lg.F("actions.parse.needs_id", "verb", blocks.EscapeTyped(typed)), false
	}
	q.verb, q.target = st, id
	return q, "", true
}

// parseFilters parses the words of a list's filters: a person, a
// status, overdue, or a meeting (which takes the rest of the text).
func parseFilters(lg lang.Lang, fields []word) (q actionsQuery, note string, ok bool) {
	for i, f := range fields {
		lf := lang.Keyword(strings.ToLower(f.Text))
		switch {
		case f.UserID != "":
			q.Who = f.UserID
		case strings.HasPrefix(f.Text, "@"):
			return q, lg.F("actions.parse.who", "who", blocks.EscapeTyped(f.Text)), false
		case lf == "overdue":
			q.Overdue = true
		case lf == "completed":
			q.Status = string(apiclient.StatusComplete)
		case lf == "all":
			q.Status = string(actions.All)
		case lf == "in-progress" || lf == "inprogress" || lf == "started":
			q.Status = string(apiclient.StatusInProgress)
		case lf == "mine" || lf == "my":
		case lf == "meeting":
			rest := wordsText(fields[i+1:])
			if rest.Plain == "" {
				return q, lg.F("actions.parse.meeting", "word", blocks.EscapeTyped(f.Text)), false
			}
			q.Meeting = rest.argument()
			return q, "", true
		case apiclient.Status(lf).Valid():
			q.Status = lf
		default:
			return q, lg.F("actions.parse.unknown", "word", blocks.EscapeTyped(f.Text)), false
		}
	}
	return q, "", true
}

// wordsText is words as a command's text, their texts joined by spaces.
func wordsText(words []word) commandText {
	texts := make([]string, 0, len(words))
	for _, w := range words {
		texts = append(texts, w.Text)
	}
	return commandText{Plain: strings.Join(texts, " "), Words: words}
}

func (u *actionsUI) commandActions(ctx context.Context, cmd command) *reply {
	lg := lang.FromContext(ctx)
	q, note, ok := parseActionsText(lg, cmd.Args)
	if !ok {
		return ephemeral(blocks.Help(lg, "/actions", note))
	}
	if q.verb != "" {
		return u.commandSetStatus(ctx, cmd.UserID, q.target, q.verb)
	}
	if q.history != "" {
		return u.history(ctx, cmd.UserID, q.history) // bot/audit.go
	}
	if q.snoozed {
		return u.snoozed(ctx, cmd.UserID) // bot/snooze.go
	}
	return u.listReply(ctx, cmd.UserID, q)
}

// clicked is an action just changed by a click, and the change: it stays
// on the page or view the click was on, annotated, even when its new
// status no longer belongs there, so the clicker sees what happened.
type clicked struct {
	action apiclient.Action
	change *blocks.Change
}

// is reports whether id is the clicked action.
func (c *clicked) is(id string) bool { return c != nil && c.action.ID == id }

// changeOf is the change to annotate the row of id with, or nil.
func (c *clicked) changeOf(id string) *blocks.Change {
	if c.is(id) {
		return c.change
	}
	return nil
}

// withClicked returns list's actions, as pointers, with the clicked one
// (as changed) in its place or added, so a finished action that is no
// longer in the list of those still to do stays on the page.
func withClicked(list []apiclient.Action, c *clicked) []*apiclient.Action {
	ptrs := make([]*apiclient.Action, len(list))
	for i := range list {
		ptrs[i] = &list[i]
	}
	return withClickedPtrs(ptrs, c)
}

// withClickedPtrs is withClicked for a list already picked out: the clicked
// action replaces its older copy, at the end, where sorting puts it back in
// its place (see sortKeeping).
func withClickedPtrs(list []*apiclient.Action, c *clicked) []*apiclient.Action {
	out := make([]*apiclient.Action, 0, len(list)+1)
	for _, a := range list {
		if !c.is(a.ID) {
			out = append(out, a)
		}
	}
	if c != nil {
		a := c.action
		out = append(out, &a)
	}
	return out
}

// actionsPage builds one page of the list q asks for, as seen by caller,
// keeping the action a click just changed on it (c, nil for none).
func (u *actionsUI) actionsPage(ctx context.Context, caller string, q actionsQuery, c *clicked) *reply {
	src, r, _ := u.pageSource(ctx, caller, q, live{})
	if r != nil {
		return r
	}
	src.snoozes = u.snoozes.running(ctx, src.me)
	r, _ = u.drawPage(src, caller, q, c, u.now())
	return r
}

// pageSource is what a page of actions is drawn from: who reads it, whose
// actions (or which meeting's) it shows, and the list they come from.
type pageSource struct {
	me, owner actions.Member
	meErr     error
	ownerErr  error
	meeting   *apiclient.Meeting
	list      *apiclient.ActionList
	// snoozes are the caller's snoozes still running (snoozing.running),
	// read only when a page is drawn: a memoised reply is forgotten when
	// the caller snoozes (clickSnooze) and lapses when a snooze ends.
	snoozes map[string]time.Time
}

// pageSource reads what a page of q needs, through reads, or returns the
// notice to show instead: another person's list the caller may not see, a
// meeting or a list that cannot be read. ok is false when reads is
// fromMemory and something is not in memory: there is nothing to show yet.
func (u *actionsUI) pageSource(ctx context.Context, caller string, q actionsQuery, reads sourceReads) (src pageSource, r *reply, ok bool) {
	if src.me, src.meErr = reads.who(ctx, u.actions, caller); errors.Is(src.meErr, errNotInMemory) {
		return src, nil, false
	}
	src.owner, src.ownerErr = src.me, src.meErr
	// Whose actions the caller may see is the domain's rule (CanSee);
	// every list drawn passes through it (Visible).
	if q.Who != "" && q.Who != caller {
		if !u.actions.CanSeeOthers(src.me) {
			return src, notice(u.othersRefused(src.me, src.meErr, q.Who)), true
		}
		if src.owner, src.ownerErr = reads.who(ctx, u.actions, q.Who); errors.Is(src.ownerErr, errNotInMemory) {
			return src, nil, false
		}
	}
	if q.Meeting != "" {
		m, err := reads.meeting(ctx, u.meetings, q.Meeting)
		switch {
		case errors.Is(err, errNotInMemory):
			return src, nil, false
		case isNotFound(err):
			return src, notice(lang.FromContext(ctx).F("actions.no_meeting", "meeting", blocks.EscapeTyped(q.Meeting))), true
		case err != nil:
			return src, notice(u.say(ctx, "actions for meeting", err)), true
		}
		src.meeting = m
	}
	list, err := reads.list(ctx, u.actions, apiclient.Status(q.Status))
	switch {
	case errors.Is(err, errNotInMemory):
		return src, nil, false
	case err != nil:
		return src, notice(u.say(ctx, "list actions", err)), true
	}
	src.list = list
	return src, nil, true
}

// sourceReads is how pageSource reads who asks and what they see: asking
// Slack and the records service when the caches lack it (live), or from
// memory alone (fromMemory: quickActions, which must never wait). One
// pageSource, so both ways into /actions pass the same checks.
type sourceReads interface {
	who(ctx context.Context, s *actions.Service, id string) (actions.Member, error)
	meeting(ctx context.Context, m *minutes.Service, id string) (*apiclient.Meeting, error)
	list(ctx context.Context, s *actions.Service, st apiclient.Status) (*apiclient.ActionList, error)
}

type (
	live       struct{}
	fromMemory struct{}
)

// errNotInMemory is fromMemory's answer for what only a call could give.
var errNotInMemory = errors.New("not in memory")

func (live) who(ctx context.Context, s *actions.Service, id string) (actions.Member, error) {
	return s.Who(ctx, id)
}

func (live) meeting(ctx context.Context, m *minutes.Service, id string) (*apiclient.Meeting, error) {
	return m.Meeting(ctx, id)
}

func (live) list(ctx context.Context, s *actions.Service, st apiclient.Status) (*apiclient.ActionList, error) {
	return s.List(ctx, st)
}

func (fromMemory) who(_ context.Context, s *actions.Service, id string) (actions.Member, error) {
	if m, ok := s.WhoCached(id); ok {
		return m, nil
	}
	return actions.Member{}, errNotInMemory
}

// meeting is never answered from memory: a meeting's list is read afresh
// (listReply).
func (fromMemory) meeting(context.Context, *minutes.Service, string) (*apiclient.Meeting, error) {
	return nil, errNotInMemory
}

func (fromMemory) list(_ context.Context, s *actions.Service, st apiclient.Status) (*apiclient.ActionList, error) {
	if l, ok := s.ListCached(st); ok {
		return l, nil
	}
	return nil, errNotInMemory
}

// drawPage draws the page of q from src at now. until is the first moment
// after now at which one of the actions it considered turns overdue (zero
// when none will): the page drawn later than that may differ (an overdue
// action sorts first and is marked), while before it the same src gives
// the same page, but for its render revisions.
func (u *actionsUI) drawPage(src pageSource, caller string, q actionsQuery, c *clicked, now time.Time) (r *reply, until time.Time) {
	lg := u.actions.ReaderLanguage(src.me.Locale)
	seesOthers := u.actions.CanSeeOthers(src.me)
	// A page lists the owner's own actions (their list, or a meeting's
	// seen by someone who sees only their own) unless it is a meeting's
	// whole list.
	listing := actions.OnePerson
	if src.meeting != nil && seesOthers {
		listing = actions.SeveralPeople
	}
	picked, left, until := u.pickActions(u.candidates(src, listing, c), src, q, c, now)
	picked = u.actions.Visible(src.me, picked)
	// A list of the owner's own actions that is empty because nothing
	// matches them to the records says so rather than "no actions".
	if len(picked) == 0 && listing == actions.OnePerson && !src.owner.Mapped() {
		if src.ownerErr != nil {
			return notice(lg.T("actions.profile_unknown")), until
		}
		return notice(unmappedText(lg, src.owner, caller)), until
	}
	u.sortKeeping(picked, now, src.me.Zone, c)

	total := len(picked)
	if q.Offset < 0 || q.Offset >= total {
		q.Offset = 0
	}
	end := min(q.Offset+u.pageSize, total)
	page := u.pageHead(lg, src, q, pageReader{caller: caller, seesOthers: seesOthers}, picked)
	if left != nil && slices.Contains(picked, left) {
		page.Left = 1
	}
	page.Rows, until = u.pageRows(picked[q.Offset:end], src, q.context(), c, listing, now, until)
	if end < total {
		page.MoreValue = q.moreValue(end)
	}
	return ephemeral(blocks.Actions(page)), until
}

// candidates are the actions a page of src may show, the one c just
// changed included. One person's list comes from the domain's index of
// the shared list (no walk of every action); so does a meeting's list for
// a caller who sees only their own. A meeting's whole list is a walk.
func (u *actionsUI) candidates(src pageSource, listing actions.Listing, c *clicked) []*apiclient.Action {
	if listing == actions.SeveralPeople {
		return withClicked(src.list.Actions, c)
	}
	candidates := u.actions.Assigned(src.list, src.owner)
	if c != nil {
		candidates = withClickedPtrs(candidates, c)
	}
	return candidates
}

// pickActions picks from candidates those q asks for at now, and the one
// c just changed. left is that clicked action when its change took it out
// of the list (completed in a list of open actions): it stays on the
// page, but the header counts only what the list still holds. until is
// the first moment after now at which a candidate turns overdue.
func (u *actionsUI) pickActions(candidates []*apiclient.Action, src pageSource, q actionsQuery, c *clicked, now time.Time) (picked []*apiclient.Action, left *apiclient.Action, until time.Time) {
	meeting := src.meeting
	for _, a := range candidates {
		if at := actions.DeadlineAt(a, u.actions.Zone()); at.After(now) && (until.IsZero() || at.Before(until)) {
			until = at
		}
		if meeting != nil && !actions.AroseAt(a, meeting) {
			continue
		}
		fits := q.wantStatus(a.Status) &&
			(q.Committee == "" || minutes.CommitteeKey(a.Committee) == q.Committee) &&
			(!q.Overdue || u.actions.Due(a, now, src.me.Zone, 0) == actions.Overdue)
		if !fits {
			if !c.is(a.ID) {
				continue
			}
			left = a
		}
		picked = append(picked, a)
	}
	return picked, left, until
}

// pageHead is the list of q's page without its rows: its title and
// counts. picked is every action the list holds, sorted.
func (u *actionsUI) pageHead(lg lang.Lang, src pageSource, q actionsQuery, rd pageReader, picked []*apiclient.Action) blocks.ActionList {
	title := q.title(lg, src.owner, src.meeting, rd)
	if q.Committee != "" {
		title = lg.F("actions.title_of", "title", title, "committee", committeeName(picked, q.Committee))
	}
	return blocks.ActionList{
		Lang:      lg,
		Title:     title,
		Offset:    q.Offset,
		Total:     len(picked),
		Empty:     q.empty(lg, src.owner, rd),
		Truncated: src.list.Truncated,
		Read:      len(src.list.Actions),
		Available: src.list.Total,
	}
}

// pageRows draws the rows of page, each with the page's context pageCtx
// for its buttons. until comes back moved earlier to the end of a snooze
// a row shows, if that comes first: the row reads "Snoozed until" until
// then.
func (u *actionsUI) pageRows(page []*apiclient.Action, src pageSource, pageCtx string, c *clicked, listing actions.Listing, now, until time.Time) ([]blocks.ActionRow, time.Time) {
	rows := make([]blocks.ActionRow, 0, len(page))
	for _, a := range page {
		// Snooze is offered on the caller's own rows only, never on
		// another person's list an admin reads (snoozing.view).
		r := u.row(a, u.snoozes.view(u.actions.ViewOf(src.me, a, now, listing), src.me, a), c.changeOf(a.ID))
		r.Context = pageCtx
		if day, ok := src.snoozes[a.ID]; ok && r.MaySnooze {
			r.SnoozedUntil = day
			if until.IsZero() || day.Before(until) {
				until = day
			}
		}
		rows = append(rows, r)
	}
	return rows, until
}

// moreValue is the value of the "Show more" button: q from offset end.
func (q actionsQuery) moreValue(end int) string {
	q.Offset = end
	b, err := json.Marshal(q)
	if err != nil {
		return "" // strings, a bool and an int: it cannot fail; no button
	}
	return string(b)
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
	if q.Committee != "" {
		v.Set("c", q.Committee)
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
	q.Who, q.Status, q.Overdue, q.Meeting, q.Committee = v.Get("w"), v.Get("s"), v.Get("d") == "1", v.Get("m"), v.Get("c")
	if o := v.Get("o"); o != "" {
		// context writes a positive offset or none.
		if q.Offset, err = strconv.Atoi(o); err != nil || q.Offset <= 0 {
			return q, false
		}
	}
	if q.Who != "" && !slackapi.IsUserID(q.Who) {
		return q, false
	}
	if q.Status != "" && q.Status != string(actions.All) && !apiclient.Status(q.Status).Valid() {
		return q, false
	}
	return q, true
}

func (q actionsQuery) wantStatus(st apiclient.Status) bool {
	switch q.Status {
	case string(actions.All):
		return true
	case "":
		return actions.StillToDo(st)
	}
	return string(st) == q.Status
}

// pageReader is who reads a page of actions, as its heading and its empty
// text word it.
type pageReader struct {
	caller string
	// seesOthers is false when the caller sees only their own actions (a
	// meeting's list then says so).
	seesOthers bool
}

// title is the list's heading: owner's actions, or meeting m's, for rd.
func (q actionsQuery) title(lg lang.Lang, owner actions.Member, m *apiclient.Meeting, rd pageReader) string {
	what := "open"
	switch {
	case q.Overdue:
		what = "overdue"
	case q.Status != "":
		what = q.Status // "all" or a valid status (parseContext, parseActionsText)
	}
	if m != nil {
		name := m.Title
		if name == "" {
			name = m.ID
		}
		w := lg.T(listWordsOf(what).what)
		if !rd.seesOthers {
			return lg.F("actions.title.meeting_mine", "meeting", name, "what", w)
		}
		return lg.F("actions.title.meeting", "meeting", name, "what", w)
	}
	if owner.ID == rd.caller {
		return lg.T(listWordsOf(what).mine)
	}
	name := owner.Name
	if name == "" {
		name = owner.ID
	}
	return lg.F(listWordsOf(what).other, "name", name)
}

// listWords are the catalogue's words for one list /actions shows: its
// name inside a meeting's heading, and its heading for the caller's own
// actions and for someone else's.
type listWords struct{ what, mine, other lang.Key }

// listWordsByName are listWords by the list's name: "open", "overdue",
// "all" or a status.
var listWordsByName = map[string]listWords{
	"open":              {"actions.what.open", "actions.title.mine.open", "actions.title.other.open"},
	"overdue":           {"actions.what.overdue", "actions.title.mine.overdue", "actions.title.other.overdue"},
	string(actions.All): {"actions.what.all", "actions.title.mine.all", "actions.title.other.all"},
	"complete":          {"actions.what.complete", "actions.title.mine.complete", "actions.title.other.complete"},
	"in_progress":       {"actions.what.in_progress", "actions.title.mine.in_progress", "actions.title.other.in_progress"},
	"cancelled":         {"actions.what.cancelled", "actions.title.mine.cancelled", "actions.title.other.cancelled"},
	"deferred":          {"actions.what.deferred", "actions.title.mine.deferred", "actions.title.other.deferred"},
}

// listWordsOf are the words of the list named what; a status the table
// lacks reads as "all" (the list holds every status then).
func listWordsOf(what string) listWords {
	if w, ok := listWordsByName[what]; ok {
		return w
	}
	return listWordsByName[string(actions.All)]
}

// empty is what a page of owner's actions says when none match q, for rd.
func (q actionsQuery) empty(lg lang.Lang, owner actions.Member, rd pageReader) string {
	mine := owner.ID == rd.caller
	switch {
	case mine && q.Status == "" && !q.Overdue && q.Meeting == "":
		return lg.T("actions.empty.mine")
	case mine && q.Committee != "":
		return lg.T("actions.empty.committee")
	case q.Meeting != "" && !rd.seesOthers:
		return lg.T("actions.empty.meeting")
	}
	return lg.T("actions.empty.match")
}

// othersRefused says, politely, why the caller (me) may not see another
// person's (who's) list, and what they can do instead.
func (u *actionsUI) othersRefused(me actions.Member, meErr error, who string) string {
	lg := u.actions.ReaderLanguage(me.Locale)
	whose := lg.T("actions.whose.someone")
	if slackapi.IsUserID(who) {
		whose = lg.F("actions.whose.user", "who", "<@"+who+">")
	}
	switch {
	case me.Guest:
		return lg.F("actions.refused.guest", "whose", whose)
	case meErr != nil && u.actions.CanSeeOthersOnceKnown(me):
		// Slack could not say whether the caller is a guest: a member
		// under organisation, or an admin, sees others' once it can.
		return lg.T("actions.refused.unknown")
	}
	return lg.F("actions.refused.own", "whose", whose)
}

// sortKeeping orders as actions.CompareUrgency does; an
// action just changed by a click on the page keeps the place it had
// before: it sorts as if it were still to do, so redrawing the page does
// not move the row under the clicker's pointer.
func (u *actionsUI) sortKeeping(as []*apiclient.Action, now time.Time, reader *time.Location, c *clicked) {
	ranked := func(a *apiclient.Action) actions.Ranked {
		judged := a
		if c.is(a.ID) {
			still := *a
			still.Status = apiclient.StatusOpen
			judged = &still
		}
		return actions.Ranked{Action: a, Overdue: u.actions.Due(judged, now, reader, 0) == actions.Overdue}
	}
	zone := u.actions.Zone()
	slices.SortStableFunc(as, func(a, b *apiclient.Action) int {
		return actions.CompareUrgency(ranked(a), ranked(b), zone)
	})
}

// row is the row of a as its viewer sees it (v, the actions domain's
// decision), with the change a click just made (nil for none) and a fresh
// render revision.
func (u *actionsUI) row(a *apiclient.Action, v actions.View, changed *blocks.Change) blocks.ActionRow {
	r := blocks.RowOf(a, v, u.actions.Link(a.ID), changed)
	r.Rev = u.revs.next()
	return r
}

// unmappedText says why owner's list, asked for by caller, is empty:
// nothing in the records matches them.
func unmappedText(lg lang.Lang, owner actions.Member, caller string) string {
	if owner.ID != caller {
		return lg.T("actions.unmapped.other")
	}
	return lg.T("actions.unmapped.self")
}

// committeeName is the committee of key as the records name it, from the
// first of list that has it, else key itself.
func committeeName(list []*apiclient.Action, key string) string {
	for _, a := range list {
		if minutes.CommitteeKey(a.Committee) == key {
			return a.Committee
		}
	}
	return key
}
