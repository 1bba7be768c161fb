package apiclient

import (
	"encoding/json"
	"slices"
	"time"
)

// Status is an action's status. The values the Records API v1 documents are
// the constants below; a status the server invents is kept as sent and shown
// as is, but [Client.UpdateActionStatus] refuses to send one.
type Status string

// The action statuses of Records API v1.
const (
	StatusOpen       Status = "open"
	StatusInProgress Status = "in_progress"
	StatusComplete   Status = "complete"
	StatusCancelled  Status = "cancelled"
	StatusDeferred   Status = "deferred"
)

// Statuses returns the documented action statuses in a stable order, a new
// slice each call.
func Statuses() []Status { return slices.Clone(statuses) }

var statuses = []Status{StatusOpen, StatusInProgress, StatusComplete, StatusCancelled, StatusDeferred}

// Valid reports whether s is one of the documented action statuses.
func (s Status) Valid() bool { return slices.Contains(statuses, s) }

// Person is an action's assignee as the records service names them. Any of
// the fields may be empty; a bare string assignee lands in Email when it
// contains "@", in SlackID when it looks like a Slack user ID (U… or W…), and
// in Name otherwise.
type Person struct {
	Email   string
	Name    string
	ID      string
	SlackID string
}

// String returns the best human label for p: its name, else its email, else
// an ID. It is empty only when p is.
func (p Person) String() string {
	switch {
	case p.Name != "":
		return p.Name
	case p.Email != "":
		return p.Email
	case p.SlackID != "":
		return p.SlackID
	}
	return p.ID
}

// IsZero reports whether p names nobody.
func (p Person) IsZero() bool { return p == Person{} }

// Action is one item of the action log.
type Action struct {
	ID     string
	Title  string
	Status Status
	// Assignee is who the action is assigned to; zero when unassigned.
	Assignee Person
	// Deadline is zero when the record has none. A date-only deadline
	// (YYYY-MM-DD) is midnight UTC of that date with DeadlineHasTime false.
	Deadline        time.Time
	DeadlineHasTime bool
	MeetingID       string
	MeetingTitle    string
	Committee       string
	// Raw is the record exactly as the server sent it, so fields this
	// client does not know are never lost; nil in the results of
	// [Client.ListActions] unless the client was made [WithRawRecords].
	// The records of one page share Raw's backing array (appending to one
	// Raw never touches another); clone it to keep a single record for
	// long.
	Raw json.RawMessage
}

// Meeting is a committee meeting. Agenda is filled by [Client.GetMeeting]
// (the detail view) and usually empty in lists.
type Meeting struct {
	ID string
	// Reference is the human reference (such as "FIN-2026-03") when the
	// record has one.
	Reference string
	Title     string
	Committee string
	// Date is zero when the record has none; a date-only value is midnight
	// UTC with DateHasTime false.
	Date        time.Time
	DateHasTime bool
	Location    string
	Agenda      []AgendaItem
	// Status is the meeting's own status as the records give it
	// ("scheduled", "cancelled"); empty when they give none.
	Status string
	// Visibility is the records' visibility or access mark ("public",
	// "private"); empty when they give none.
	Visibility string
	// Confidential is set when the records mark the meeting confidential.
	Confidential bool
	// NotPublic is set when the records carry a public flag and it is
	// false; a meeting without one is not marked either way.
	NotPublic bool
	Raw       json.RawMessage
}

// AgendaItem is one item of a meeting's agenda.
type AgendaItem struct {
	// Number is the item's position as the server gave it ("3", "4b");
	// empty when absent.
	Number      string
	Title       string
	Description string
}

// MinutesStatus is the status of a meeting's minutes. Only the two constants
// below are ever returned by this client.
type MinutesStatus string

// The minutes statuses visible through Records API v1.
const (
	MinutesApproved       MinutesStatus = "approved"
	MinutesPublishedDraft MinutesStatus = "published_draft"
)

// Visible reports whether minutes in status s may be shown to anyone.
func (s MinutesStatus) Visible() bool {
	return s == MinutesApproved || s == MinutesPublishedDraft
}

// BodyFormat says how a minutes body is written.
type BodyFormat string

// The minutes body formats. The format follows the field the body came from
// (html → HTML, markdown → Markdown) and otherwise defaults to Markdown,
// which renders plain text faithfully too.
const (
	FormatMarkdown BodyFormat = "markdown"
	FormatHTML     BodyFormat = "html"
)

// Minutes are the published minutes of one meeting.
type Minutes struct {
	MeetingID string
	Status    MinutesStatus
	Body      string
	Format    BodyFormat
	// URL is the record's own public address, when it has one and it is an
	// http(s) URL; otherwise empty.
	URL string
	// Date is when the minutes were approved, published or last updated,
	// whichever the record gives first; zero when none.
	Date time.Time
	Raw  json.RawMessage
}

// Draft reports whether the minutes are a published draft, not yet approved.
func (m *Minutes) Draft() bool { return m.Status == MinutesPublishedDraft }

// ListActionsOptions are the query parameters of [Client.ListActions]. The
// zero value lists every action.
type ListActionsOptions struct {
	// Status, when set, lists only actions with that status.
	Status Status
}

// ActionList is the result of [Client.ListActions].
type ActionList struct {
	Actions []Action
	// Truncated is true when more actions exist than Actions holds: the
	// client stopped at its safety cap on pages or items, could not follow
	// the server's next page, or the server announced more than it sent.
	Truncated bool
	// TruncatedReason says why Truncated is set, for logs and the
	// installer's self-check; empty when it is not.
	TruncatedReason string
	// Total is the number of actions the server says the list has (a
	// total or count in the body, X-Total-Count or Content-Range), before
	// the client's own status filter; 0 when it did not say.
	Total int
}

// ListMeetingsOptions are the parameters of [Client.ListMeetings].
type ListMeetingsOptions struct {
	// Next continues a listing: pass [MeetingPage.Next] from the previous
	// page. Empty starts at the newest meeting.
	Next string
}

// MeetingPage is one page of meetings, newest first.
type MeetingPage struct {
	Meetings []Meeting
	// Next is an opaque token for the following page; empty on the last.
	Next string
	// Truncated is true when the server signals more meetings than the
	// client can reach from this page (a next link off the records API
	// host, a total beyond this page with no way to the next);
	// TruncatedReason says which.
	Truncated       bool
	TruncatedReason string
	// Total is the number of meetings the server says exist; 0 when it did
	// not say.
	Total int
}
