package minutes

import (
	"github.com/recordsbot/recordsbot/blocks"
)

// View is a meeting's minutes as Slack shows them, in a /minutes reply,
// an announcement, an unfurl or the Home tab: the meeting's name, its
// date (or, for a meeting without one, the minutes' own), the body as
// the record has it (blocks writes it as Slack text), and the link to
// the full minutes (URL). e.Minutes must not be nil.
func (s *Service) View(e Entry) blocks.MinutesView {
	m, min := e.Meeting, e.Minutes
	date, hasTime := m.Date, m.DateHasTime
	if date.IsZero() {
		date, hasTime = min.Date, true
	}
	return blocks.MinutesView{
		MeetingID:   m.ID,
		Title:       m.Name(),
		Committee:   m.Committee,
		Date:        date,
		DateHasTime: hasTime,
		Draft:       min.Draft(),
		Body:        min.Body,
		Format:      min.Format,
		URL:         s.URL(m.ID, min),
	}
}
