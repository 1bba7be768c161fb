package minutes

import (
	"html"
	"strings"

	"github.com/microcosm-cc/bluemonday"

	"github.com/recordsbot/recordsbot/apiclient"
	"github.com/recordsbot/recordsbot/blocks"
)

// textPolicy strips every tag, for an HTML body shown as plain text.
var textPolicy = bluemonday.StrictPolicy()

// View is a meeting's minutes as Slack shows them, in a /minutes reply,
// an announcement, an unfurl or the Home tab: the meeting's name, its
// date (or, for a meeting without one, the minutes' own), the body as
// text, and the link to the full minutes (URL). e.Minutes must not be nil.
func (s *Service) View(e Entry) blocks.MinutesView {
	m, min := e.Meeting, e.Minutes
	body := min.Body
	if min.Format == apiclient.FormatHTML {
		// Block-level tags become line breaks before the tags go, so
		// paragraphs don't run together.
		r := strings.NewReplacer("</p>", "</p>\n", "<br>", "\n", "<br/>", "\n", "<br />", "\n", "</li>", "</li>\n", "</h1>", "</h1>\n", "</h2>", "</h2>\n", "</h3>", "</h3>\n")
		body = html.UnescapeString(textPolicy.Sanitize(r.Replace(body)))
	}
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
		Body:        body,
		URL:         s.URL(m.ID, min),
	}
}
