package demo

import (
	"slices"
	"time"

	"github.com/recordsbot/recordsbot/apiclient/recordsfake"
	"github.com/recordsbot/recordsbot/internal/orgsim"
	"github.com/recordsbot/recordsbot/internal/sampleorg"
)

// Dataset returns the demo's story, for the demo and the sandbox: the
// sample organisation the tests use too (sampleorg.Org: ten people with Slack IDs "U0" +
// their first name in capitals, four committees meeting every two or three
// weeks over the six months before now, two meetings to come, agendas,
// minutes in every status, about fifty actions whose deadlines are set
// relative to now so that some are overdue and some due within three
// days), with one difference: Finance's latest minutes are a draft still
// hidden, so the demo's `publish finance` has one to publish, and the
// published draft before them shows in /minutes finance what a draft
// looks like.
//
// The dataset is a pure function of now: the same now always gives the same
// records, IDs included.
func Dataset(now time.Time) recordsfake.Dataset {
	return orgsim.Build(demoOrg(), now)
}

// demoOrg is the demo's organisation: sampleorg.Org with Finance's hidden
// draft.
func demoOrg() orgsim.Org {
	org := sampleorg.Org()
	if i := slices.IndexFunc(org.Committees, func(c orgsim.Committee) bool { return c.Code == "FIN" }); i >= 0 {
		org.Committees[i].Recent = append([]string{"draft"}, org.Committees[i].Recent...)
	}
	return org
}

// draftNote opens the Markdown of minutes not yet approved; the demo's
// `approve` takes it out, as a secretary would.
const draftNote = orgsim.DraftNote
