package apiclient

import (
	"bytes"
	"errors"

	"github.com/valyala/fastjson"
)

// The fields of minutes, in the order of minutesFields.
const (
	minStatus = iota
	minBody
	minFormat
	minURL
	minDate
	minMeetingID
)

// minutesFields is the alias table of minutes. The format is HTML when the
// body came from "html" (see minutesHTMLAlias) or the format field says so.
var minutesFields = []field{
	minStatus:    {name: "status", aliases: []string{"status"}},
	minBody:      {name: "body", aliases: []string{"body", "content", "text", "minutes", "markdown", "html"}, marks: true},
	minFormat:    {name: "format", aliases: []string{"format"}},
	minURL:       {name: "url", aliases: []string{"url", "public_url", "html_url"}, marks: true},
	minDate:      {name: "date", aliases: []string{"approved_at", "published_at", "updated_at"}},
	minMeetingID: {name: "meeting_id", aliases: []string{"meeting_id", "meeting.id", "meeting"}},
}

// minutesHTMLAlias is the body alias whose text is HTML.
const minutesHTMLAlias = "html"

// minutesWrappers are the members minutes may be wrapped in. Minutes need
// not have an id, and "status" may be an envelope's ("success"), so only a
// body or address marks the record itself.
var minutesWrappers = []string{"data", "minutes"}

// errHiddenMinutes is the cause of ErrNotFound for minutes the server sent
// although their status is not visible.
var errHiddenMinutes = errors.New("minutes status is not approved or published_draft")

// minutesVisible parses a minutes status, compared ignoring letter case and
// surrounding space; ok is false for any status that may not be shown.
func minutesVisible(b []byte) (MinutesStatus, bool) {
	st := bytes.TrimSpace(b)
	switch {
	case bytes.EqualFold(st, []byte(MinutesApproved)):
		return MinutesApproved, true
	case bytes.EqualFold(st, []byte(MinutesPublishedDraft)):
		return MinutesPublishedDraft, true
	}
	return "", false
}

// decodeMinutes fills m from the minutes record o. It returns
// errHiddenMinutes when the status is not visible; m is then left zero.
func decodeMinutes(d *decoder, o *fastjson.Object, raw []byte, m *Minutes) error {
	t := d.tables().minutes
	f := t.collect(d, o)
	var (
		status MinutesStatus
		ok     bool
	)
	for _, v := range t.values(f, minStatus) {
		if b := strBytes(v); len(b) > 0 {
			status, ok = minutesVisible(b)
			break
		}
	}
	if !ok {
		// Minutes that are not approved or published must never reach a
		// channel, whatever the server sent.
		return errHiddenMinutes
	}
	m.Status = status
	s := &d.strs
	m.Raw = raw
	m.Format = FormatMarkdown
	for i, v := range t.values(f, minBody) {
		if s.addBytes(&m.Body, strBytes(v)) {
			if sl := t.slots[t.start[minBody]+i]; !sl.mapped && sl.alias == minutesHTMLAlias {
				m.Format = FormatHTML
			}
			break
		}
	}
	for _, v := range t.values(f, minFormat) {
		if fm := bytes.ToLower(bytes.TrimSpace(strBytes(v))); bytes.Equal(fm, []byte("html")) || bytes.Equal(fm, []byte("text/html")) {
			m.Format = FormatHTML
		}
		if v != nil {
			break
		}
	}
	for _, v := range t.values(f, minURL) {
		if b := strBytes(v); isHTTPURL(b) && s.addBytes(&m.URL, b) {
			break
		}
	}
	for _, v := range t.values(f, minDate) {
		if t, _, ok := parseTime(strBytes(v)); ok {
			m.Date = t
			break
		}
	}
	for _, v := range t.values(f, minMeetingID) {
		if object(v) == nil && s.addScalar(&m.MeetingID, v) {
			break
		}
	}
	return nil
}
