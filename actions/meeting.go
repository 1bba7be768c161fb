package actions

import "github.com/recordsbot/recordsbot/apiclient"

// AroseAt is the one rule for which actions arose at meeting m: those
// whose record names the meeting, by its ID or by its reference (records
// that name a meeting by the reference people use). An action naming no
// meeting arose at none. Every surface that lists a meeting's actions
// asks it: /actions meeting, a minutes card's panel, a brief.
func AroseAt(a *apiclient.Action, m *apiclient.Meeting) bool {
	return a.MeetingID != "" && m != nil && (a.MeetingID == m.ID || a.MeetingID == m.Reference)
}
