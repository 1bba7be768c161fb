package recordsfake

import (
	"slices"
	"time"
)

// Person is someone in the organisation. The server does not serve
// people; they are in [Dataset] so that whoever builds a fake Slack beside
// it (the tests, the demo) can give each assignee a Slack account.
type Person struct {
	Name  string
	Email string
	// SlackID is the user ID a fake Slack gives this person, such as
	// "U0ALICE".
	SlackID string
}

// Action is one item of the action log, as the server stores it.
type Action struct {
	// ID is opaque to clients and may contain '/', spaces or non-ASCII
	// letters; clients must escape it in paths.
	ID    string
	Title string
	// Status is normally one of open, in_progress, complete, cancelled or
	// deferred, but any string is stored and served as is, so tests can see
	// how a client copes with a value it does not know.
	Status        string
	AssigneeEmail string
	AssigneeName  string
	// MeetingID is the ID of the meeting that assigned the action; empty for
	// none. The action's meeting title and committee are looked up from it
	// when served.
	MeetingID string
	// Deadline is zero when the action has none.
	Deadline time.Time
	// DateOnly serves Deadline as a calendar date ("due_date": "2026-07-14",
	// in Deadline's own location) rather than an instant ("deadline",
	// RFC 3339).
	DateOnly bool
	// CreatedAt is served as "created_at". The server replaces a zero value
	// with its clock's time when the action is stored.
	CreatedAt time.Time
}

// AgendaItem is one item of a meeting's agenda.
type AgendaItem struct {
	Number      int
	Title       string
	Description string
}

// Meeting is a committee meeting.
type Meeting struct {
	// ID is opaque; GET /meetings/{id} also finds a meeting by its
	// Reference, ignoring case.
	ID string
	// Reference is the human reference, such as "FIN-2026-07"; empty for
	// none.
	Reference string
	Title     string
	Committee string
	Location  string
	// Date is when the meeting starts; zero for unknown. Meetings are
	// listed newest first by Date.
	Date   time.Time
	Agenda []AgendaItem
	// Status, Visibility and Confidential are marks some records services
	// put on a meeting, though the API defines none: sent as "status",
	// "visibility" and "confidential" when set ("cancelled", "private",
	// true). Public, when not nil, is sent as "public".
	Status, Visibility string
	Confidential       bool
	Public             *bool
}

// Minutes are the minutes of one meeting. A meeting has at most one record.
type Minutes struct {
	MeetingID string
	// Status is any string, such as approved, published_draft, draft or
	// in_review. Only approved and published_draft minutes are served; any
	// other status answers 404, as if there were none.
	Status string
	// Body is Markdown, or HTML when HTML is true.
	Body string
	HTML bool
	// URL is the minutes' own public address; empty for none.
	URL string
	// UpdatedAt is served as "published_at". The server replaces a zero
	// value with its clock's time when the minutes are stored.
	UpdatedAt time.Time
}

// Dataset is everything a server holds. The zero value is an empty
// organisation.
type Dataset struct {
	People   []Person
	Actions  []Action
	Meetings []Meeting
	Minutes  []Minutes
}

// minutesVisible reports whether minutes in this status are served.
func minutesVisible(status string) bool {
	return status == "approved" || status == "published_draft"
}

// actionStatusList names the action statuses of Records API v1 for error
// messages.
const actionStatusList = "open, in_progress, complete, cancelled, deferred"

func validActionStatus(s string) bool {
	switch s {
	case "open", "in_progress", "complete", "cancelled", "deferred":
		return true
	}
	return false
}

// cloneMeeting copies m so that callers cannot reach the server's agenda
// through a shared backing array.
func cloneMeeting(m Meeting) Meeting {
	m.Agenda = slices.Clone(m.Agenda)
	return m
}
