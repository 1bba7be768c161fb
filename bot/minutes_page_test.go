package bot_test

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/recordsbot/recordsbot/apiclient/recordstest"
	"github.com/recordsbot/recordsbot/bot"
	"github.com/recordsbot/recordsbot/internal/pagetest"
	"github.com/recordsbot/recordsbot/minutes"
)

// pageResponse is the bot's answer to one request for a public page.
type pageResponse struct {
	status int
	header http.Header
	body   string
}

// fetchPage requests path from the bot's HTTP server with method (GET when
// empty) and the given headers.
func (h *harness) fetchPage(method, path string, header http.Header) pageResponse {
	h.t.Helper()
	status, hd, body := pagetest.Fetch(h.t, h.http, method, path, header)
	return pageResponse{status: status, header: hd, body: body}
}

// demoMinutes returns the first minutes of the dataset that match, with
// their meeting.
func (h *harness) demoMinutes(match func(recordstest.Minutes) bool) (recordstest.Meeting, recordstest.Minutes) {
	h.t.Helper()
	return pagetest.FindMinutes(h.t, h.data, match)
}

// assertNotFoundPage checks a friendly 404 (pagetest.AssertNotFound).
func assertNotFoundPage(t *testing.T, r pageResponse) {
	t.Helper()
	pagetest.AssertNotFound(t, r.status, r.header, r.body)
}

func TestMinutesPageHidesHiddenStatusesEvenWhenServed(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	m, _ := h.demoMinutes(pagetest.PlainApproved)
	// A records server that breaks its own rule and serves draft minutes.
	h.records.InjectFault(recordstest.Fault{
		Method:     http.MethodGet,
		PathPrefix: "/meetings/" + m.ID + "/minutes",
		Body:       `{"minutes":{"status":"draft","body":"secret"}}`,
	})

	r := h.fetchPage("", pagetest.MinutesPath(m.ID), nil)
	assertNotFoundPage(t, r)
	assert.NotContains(t, r.body, "secret")
	require.Equal(t, 1, h.records.Count(http.MethodGet, "/meetings/"+m.ID+"/minutes"), "the records server did answer with the draft")

	// Nor does a link to it unfurl.
	h.shareLinks(t, "Ev_hidden", h.minutesLink(m.ID))
	assert.Empty(t, h.slack.Unfurls())
}

// offsetClock is the real clock moved forward by a test, so signed Slack
// requests still verify while cached answers age.
type offsetClock struct{ offset atomic.Int64 }

func (c *offsetClock) now() time.Time { return time.Now().Add(time.Duration(c.offset.Load())) }

func (c *offsetClock) add(d time.Duration) { c.offset.Add(int64(d)) }

func TestPublicMinutesOff(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name          string
		publicMinutes bool
		ownURL        bool
		wantLink      func(recordstest.Meeting, recordstest.Minutes) string // "" for none
	}{
		{"on, record without a URL links to the page", true, false,
			func(m recordstest.Meeting, _ recordstest.Minutes) string {
				return "https://records-bot.example.org/minutes/" + m.ID
			}},
		{"on, record with a URL links to the page all the same", true, true,
			func(m recordstest.Meeting, _ recordstest.Minutes) string {
				return "https://records-bot.example.org/minutes/" + m.ID
			}},
		{"off, record with a URL links to it", false, true,
			func(_ recordstest.Meeting, min recordstest.Minutes) string { return min.URL }},
		{"off, record without a URL has no link", false, false,
			func(recordstest.Meeting, recordstest.Minutes) string { return "" }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t, withMinutes(func(c *minutes.Config) { c.Public = tt.publicMinutes }))
			m, min := h.demoMinutes(func(min recordstest.Minutes) bool {
				return min.Status == "approved" && (min.URL != "") == tt.ownURL
			})
			reply, _ := h.slash(h.person("alice"), "/minutes", m.ID)
			s := reply.all()
			require.Contains(t, s, m.Title)
			if want := tt.wantLink(m, min); want != "" {
				assert.Contains(t, s, `"url":"`+want+`"`)
			} else {
				assert.NotContains(t, s, `"url":`, "no link at all")
			}
			if !tt.publicMinutes {
				assert.NotContains(t, s, "records-bot.example.org", "no link to a page that is off")
				calls := h.records.Count("", "")
				assertNotFoundPage(t, h.fetchPage("", pagetest.MinutesPath(m.ID), nil))
				assert.Equal(t, calls, h.records.Count("", ""), "a page that is off makes no records call")
			}
		})
	}
}

// TestMinutesPagesInABrowser loads the public pages from the running bot
// in headless Chromium (the Debian package chromium), at a desktop width
// and at 390 px, a phone's: each renders with its stylesheet, fits the
// screen (nothing laid out wider), logs no console error and has nothing
// refused by its Content-Security-Policy. CI runs it (.ci/run installs
// Chromium and sets RECORDSBOT_BROWSER=1); elsewhere it runs when
// RECORDSBOT_BROWSER is set:
//
//	RECORDSBOT_BROWSER=1 go test ./bot -run TestMinutesPagesInABrowser
//
// RECORDSBOT_BROWSER=update also writes the screenshots docs/minutes-pages.md
// shows, docs/minutes-page.png and docs/minutes-archive-phone.png.
func TestMinutesPagesInABrowser(t *testing.T) {
	mode := os.Getenv("RECORDSBOT_BROWSER")
	if mode == "" {
		t.Skip("set RECORDSBOT_BROWSER=1 to run the headless Chromium check")
	}
	t.Parallel()
	chromium, err := exec.LookPath("chromium")
	require.NoError(t, err, "RECORDSBOT_BROWSER is set but chromium is not installed (apt-get install chromium)")

	h := newHarness(t, withConfig(func(c *bot.Config) { c.OrgName = "Riverside Community Trust" }))
	// The newest Finance minutes are a published draft: the screenshot
	// shows the banner, the facts, the agenda and the body.
	m := h.latestPublished("Finance")
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()
	b := startBrowser(ctx, t, chromium)

	pages := []struct{ name, path, shot string }{
		{"minutes page", pagetest.MinutesPath(m.ID), "minutes-page.png"},
		{"archive", "/minutes", ""},
		{"archive of a committee", "/minutes?committee=Finance", ""},
		{"search page", "/minutes?q=insurance", ""},
		// German and French run longer than English: the same pages must
		// still fit a phone's width.
		{"minutes page in German", pagetest.MinutesPath(m.ID) + "?lang=de", ""},
		{"archive in French", "/minutes?lang=fr", ""},
		{"archive in German", "/minutes?lang=de", ""},
		{"accessibility statement in German", "/accessibility?lang=de", ""},
	}
	for _, p := range pages {
		for _, size := range []struct{ w, h int }{{1100, 1400}, {390, 844}} {
			v := b.visit(h.http.URL+p.path, size.w, size.h)
			where := fmt.Sprintf("%s at %d px", p.name, size.w)
			assert.Empty(t, v.Problems, "%s: console errors or CSP refusals", where)
			assert.True(t, v.Styled, "%s: the stylesheet applied", where)
			assert.Equal(t, size.w, v.Width, where)
			assert.LessOrEqual(t, v.ScrollWidth, v.Width, "%s: nothing is laid out wider than the screen", where)
			assert.Equal(t, "17px", v.FontSize, "%s: body text at a readable size", where)
			img, err := png.Decode(bytes.NewReader(v.PNG))
			require.NoError(t, err, where)
			assert.Equal(t, size.w, img.Bounds().Dx(), where)
			if p.shot != "" && size.w == 1100 {
				// The draft banner's amber is on screen: the page is drawn
				// with the stylesheet's colours.
				assert.True(t, hasColour(img, color.RGBA{0xff, 0xf3, 0xd1, 0xff}), "the draft banner is drawn with the stylesheet's colour")
			}
			if dir := os.Getenv("RECORDSBOT_SHOTS"); dir != "" {
				require.NoError(t, os.WriteFile(filepath.Join(dir, fmt.Sprintf("%s-%d.png", strings.ReplaceAll(p.name, " ", "-"), size.w)), v.PNG, 0o644))
			}
			if mode == "update" {
				name := p.shot
				if p.name == "archive" && size.w == 390 {
					name = "minutes-archive-phone.png"
				}
				if name != "" && (size.w == 1100) == (name == p.shot) {
					require.NoError(t, os.WriteFile(filepath.Join("..", "docs", name), v.PNG, 0o644))
				}
			}
		}
	}
}

// hasColour reports whether any pixel of img is c.
func hasColour(img image.Image, c color.RGBA) bool {
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y += 2 {
		for x := b.Min.X; x < b.Max.X; x += 2 {
			if color.RGBAModel.Convert(img.At(x, y)) == c {
				return true
			}
		}
	}
	return false
}

// Record text with bidi controls or zero-width characters is shown
// without them, on the page and in Slack: a title "\u202Egnp.exe" must not
// read "exe.png".
func TestRecordTextLosesBidiAndZeroWidthCharacters(t *testing.T) {
	t.Parallel()
	const id = "mtg_bidi"
	invisibles := "\u202A\u202B\u202C\u202D\u202E\u2066\u2067\u2068\u2069\u200E\u200F\u061C\u200B\u200C\u200D\u2060\uFEFF"
	h := newHarness(t, withDataset(func(d *recordstest.Dataset) {
		d.Meetings = append(d.Meetings, recordstest.Meeting{
			ID: id, Title: "\u202Egnp.exe", Committee: "Fin\u200Bance", Location: "Room\u2066 1\u2069",
			Date:   time.Date(2026, 1, 5, 18, 30, 0, 0, time.UTC),
			Agenda: []recordstest.AgendaItem{{Number: 1, Title: "\u202Bmeti\u202C", Description: "x\uFEFFy"}},
		})
		d.Minutes = append(d.Minutes, recordstest.Minutes{MeetingID: id, Status: "approved", Body: "Agreed \u202Eyenom\u202C."})
	}))
	alice := h.person("alice")
	h.records.AddAction(recordstest.Action{ID: "act_bidi", Title: "\u202Egnp.exe", Status: "open", MeetingID: id, AssigneeEmail: alice.Email})

	page := h.fetchPage("", pagetest.MinutesPath(id), nil)
	require.Equal(t, http.StatusOK, page.status)
	assert.False(t, strings.ContainsAny(page.body, invisibles), "no bidi control or zero-width character on the page")
	assert.Contains(t, page.body, "gnp.exe")
	assert.Contains(t, page.body, "Finance")
	assert.Contains(t, page.body, "Agreed yenom.")

	reply, _ := h.slash(alice, "/actions", "")
	assert.Contains(t, string(reply.raw), "gnp.exe")
	assert.False(t, strings.ContainsAny(string(reply.raw), invisibles), "none in Slack either")
}
