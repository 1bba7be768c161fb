package minutes

import (
	"sync"

	"github.com/recordsbot/recordsbot/apiclient"
)

// recordURLsMax bounds the URLs MeetingOfURL remembers: the minutes read
// lately, which are what people paste.
const recordURLsMax = 2000

// recordURLs maps the records' own minutes URLs to their meetings, as
// learnt from minutes read (Read): the records service offers no lookup
// by URL, and a link pasted in Slack should cost no records call to
// recognise.
type recordURLs struct {
	mu   sync.Mutex
	byID map[string]string // URL → meeting ID
}

// learn remembers min's own URL as meetingID's; nil min (minutes not
// visible) teaches nothing.
func (r *recordURLs) learn(min *apiclient.Minutes, meetingID string) {
	if min == nil || min.URL == "" || meetingID == "" {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.byID == nil || len(r.byID) >= recordURLsMax {
		// Forget them all rather than grow: the next read of each
		// teaches it again.
		r.byID = make(map[string]string)
	}
	r.byID[min.URL] = meetingID
}

// MeetingOfURL returns the meeting whose visible minutes the records keep
// at link, the record's own minutes URL, when the bot has read those
// minutes lately (a /minutes, an announcement, a page, an unfurl); ok is
// false otherwise. It makes no records call.
func (s *Service) MeetingOfURL(link string) (meetingID string, ok bool) {
	s.recordURLs.mu.Lock()
	defer s.recordURLs.mu.Unlock()
	meetingID, ok = s.recordURLs.byID[link]
	return meetingID, ok
}
