package bot_test

import (
	"net/http"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/recordsbot/recordsbot/apiclient/recordstest"
	"github.com/recordsbot/recordsbot/minutes"
)

// latestVisible returns the newest past meeting (of committee, if set) whose
// minutes are approved or a published draft, per the records server.
func (h *harness) latestVisible(committee string) (recordstest.Meeting, recordstest.Minutes) {
	visible := map[string]recordstest.Minutes{}
	for _, m := range h.records.Minutes() {
		if m.Status == "approved" || m.Status == "published_draft" {
			visible[m.MeetingID] = m
		}
	}
	ms := h.records.Meetings()
	sort.Slice(ms, func(i, j int) bool { return ms[i].Date.After(ms[j].Date) })
	for _, m := range ms {
		if committee != "" && m.Committee != committee {
			continue
		}
		if min, ok := visible[m.ID]; ok && !m.Date.After(time.Now()) {
			return m, min
		}
	}
	h.t.Fatalf("no visible minutes for %q", committee)
	return recordstest.Meeting{}, recordstest.Minutes{}
}

func TestMinutesLatest(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	alice := h.person("alice")
	want, min := h.latestVisible("")
	m, _ := h.slash(alice, "/minutes", "")
	assert.Equal(t, "ephemeral", m.ResponseType)
	s := m.all()
	assert.Contains(t, s, want.Title)
	if min.Status == "published_draft" {
		assert.Contains(t, s, "Draft", "a draft is clearly marked")
	}
	if min.URL != "" {
		assert.Contains(t, s, min.URL, "the record's own public URL")
	} else {
		assert.Contains(t, s, "https://records-bot.example.org/minutes/", "the bot's public page")
	}
	assert.Contains(t, s, `"minutes:share"`, "a Share in channel button")
}

func TestMinutesByCommitteeAndReference(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	alice := h.person("alice")
	for _, committee := range []string{"Finance", "Governance"} {
		want, _ := h.latestVisible(committee)
		m, _ := h.slash(alice, "/minutes", strings.ToLower(committee[:3]))
		assert.Contains(t, m.all(), want.Title, "prefix %q", committee[:3])
	}
	want, _ := h.latestVisible("Governance")
	m, _ := h.slash(alice, "/minutes", want.Reference)
	assert.Contains(t, m.all(), want.Title, "by reference")
	m, _ = h.slash(alice, "/minutes", want.ID)
	assert.Contains(t, m.all(), want.Title, "by id")

	m, _ = h.slash(alice, "/minutes", "Underwater Basketweaving")
	assert.Contains(t, m.all(), "no meeting or committee called")
}

func TestMinutesDraftMarkedAndHiddenNeverShown(t *testing.T) {
	t.Parallel()
	now := time.Now()
	h := newHarness(t, withDataset(func(d *recordstest.Dataset) {
		d.Meetings = []recordstest.Meeting{
			{ID: "m-new", Reference: "X-3", Title: "Newest (in review)", Committee: "X", Date: now.Add(-24 * time.Hour)},
			{ID: "m-mid", Reference: "X-2", Title: "Middle (draft published)", Committee: "X", Date: now.Add(-48 * time.Hour)},
			{ID: "m-old", Reference: "X-1", Title: "Oldest (approved)", Committee: "X", Date: now.Add(-72 * time.Hour)},
		}
		d.Minutes = []recordstest.Minutes{
			{MeetingID: "m-new", Status: "in_review", Body: "SECRET not yet reviewed"},
			{MeetingID: "m-mid", Status: "published_draft", Body: "Draft body"},
			{MeetingID: "m-old", Status: "approved", Body: "Approved body"},
		}
	}))
	alice := h.person("alice")
	m, _ := h.slash(alice, "/minutes", "")
	assert.Contains(t, m.all(), "Middle (draft published)")
	assert.Contains(t, m.all(), "Draft")
	assert.NotContains(t, m.all(), "SECRET")
	m, _ = h.slash(alice, "/minutes", "X-3")
	assert.Contains(t, m.Text, "no published minutes")
	assert.NotContains(t, m.all(), "SECRET")
}

func TestMinutesWalkIsBounded(t *testing.T) {
	t.Parallel()
	h := newHarness(t, withDataset(func(d *recordstest.Dataset) { d.Minutes = nil }))
	m, _ := h.slash(h.person("alice"), "/minutes", "")
	assert.Contains(t, m.Text, "No minutes have been published in the last")
	assert.LessOrEqual(t, h.records.Count(http.MethodGet, "/meetings/"), 30, "at most 30 minutes fetched")
}

func TestMinutesLinksWithoutPublicPages(t *testing.T) {
	t.Parallel()
	h := newHarness(t, withMinutes(func(c *minutes.Config) { c.Public = false }))
	m, _ := h.slash(h.person("alice"), "/minutes", "")
	assert.NotContains(t, m.all(), "records-bot.example.org/minutes/", "no links to disabled pages")
}

func TestMeetingsListAndDetail(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	alice := h.person("alice")
	m, _ := h.slash(alice, "/meetings", "")
	ms := h.records.Meetings()
	sort.Slice(ms, func(i, j int) bool { return ms[i].Date.After(ms[j].Date) })
	s := m.all()
	last := -1
	for _, mm := range ms[:10] {
		i := strings.Index(s, `"value":"`+mm.ID+`"`)
		require.GreaterOrEqual(t, i, 0, "meeting %s on the first page", mm.ID)
		assert.Greater(t, i, last, "newest first")
		last = i
	}
	assert.NotContains(t, s, `"value":"`+ms[10].ID+`"`, "ten a page")
	assert.Contains(t, s, `"meetings:next"`)

	m, _ = h.slash(alice, "/meetings", "fac")
	for _, mm := range ms {
		if strings.Contains(m.all(), `"value":"`+mm.ID+`"`) {
			assert.Equal(t, "Facilities", mm.Committee, "only the committee asked for")
		}
	}
	assert.Contains(t, m.all(), "Facilities")

	detail, _ := h.slash(alice, "/meetings", ms[3].Reference)
	assert.Contains(t, detail.all(), ms[3].Title)
	for _, it := range ms[3].Agenda {
		assert.Contains(t, detail.all(), strings.ReplaceAll(strings.ReplaceAll(strings.ReplaceAll(it.Title, "&", "&amp;"), "<", "&lt;"), ">", "&gt;"))
	}
}
