package minutes

import (
	"time"

	"github.com/recordsbot/recordsbot/apiclient"
)

// Display is a meeting's minutes as every surface shows them (a /minutes
// reply, an announcement, an unfurl, the Home tab, a page): plain values,
// which package blocks draws for Slack, so the domain knows nothing of
// Block Kit.
type Display struct {
	MeetingID   string
	Title       string
	Committee   string
	Date        time.Time
	DateHasTime bool
	Draft       bool
	// Body is the minutes as the record has them, in Format (Markdown,
	// which reads plain text as it is, unless FormatHTML).
	Body   string
	Format apiclient.BodyFormat
	URL    string // link to the full minutes; empty: no link
	// Revisions are what the versions kept say (approval's changes,
	// edits after approval); ChangesURL the public comparison they link
	// to, "" for none.
	Revisions  Revisions
	ChangesURL string
}

// View is the Display of e: the meeting's name, its date (or, for a
// meeting without one, the minutes' own), the body as the record has it,
// and the link to the full minutes (URL). e.Minutes must not be nil.
func (s *Service) View(e Entry) Display {
	m, min := e.Meeting, e.Minutes
	date, hasTime := m.Date, m.DateHasTime
	if date.IsZero() {
		date, hasTime = min.Date, true
	}
	d := Display{
		MeetingID:   m.ID,
		Title:       m.Name(),
		Committee:   m.Committee,
		Date:        date,
		DateHasTime: hasTime,
		Draft:       min.Draft(),
		Body:        min.Body,
		Format:      min.Format,
		URL:         s.URL(m.ID, min),
		Revisions:   RevisionsOf(e.Versions),
	}
	if d.Revisions.Known() {
		d.ChangesURL = s.ChangesURL(m.ID, d.Revisions.From, d.Revisions.To)
	}
	return d
}
