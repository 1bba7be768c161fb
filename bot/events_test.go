package bot_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/recordsbot/recordsbot/apiclient/recordstest"
	"github.com/recordsbot/recordsbot/blocks"
	"github.com/recordsbot/recordsbot/internal/pagetest"
)

const botDomain = "records-bot.example.org"

// minutesLink is the public link to a meeting's minutes page, as people
// paste it into Slack.
func (h *harness) minutesLink(meetingID string) string {
	return "https://" + botDomain + "/minutes/" + url.PathEscape(meetingID)
}

// linkShared is the link_shared event Slack sends when links to the app's
// unfurl domains are posted in channel C0GENERAL.
func linkShared(links ...string) map[string]any {
	var ls []map[string]string
	for _, l := range links {
		u, err := url.Parse(l)
		if err != nil {
			panic(err)
		}
		ls = append(ls, map[string]string{"domain": u.Host, "url": l})
	}
	return map[string]any{
		"type":       "link_shared",
		"channel":    "C0GENERAL",
		"user":       "U0ALICE",
		"message_ts": "1767225600.000100",
		"unfurl_id":  "C0GENERAL.1767225600.000100.0123abcd",
		"source":     "conversations_history",
		"links":      ls,
		"event_ts":   "1767225600.000200",
	}
}

// sendEvent delivers an Events API callback, checks it was acknowledged
// with a 200, and waits for the work it started.
func (h *harness) sendEvent(t *testing.T, eventID string, inner any, retry int) {
	t.Helper()
	r, err := h.send.Event(t.Context(), eventID, inner, retry)
	require.NoError(t, err)
	require.Equal(t, http.StatusOK, r.Status, "body: %s", r.Body)
	h.settle(t)
}

// settle waits until the bot has finished the work its requests started.
func (h *harness) settle(t *testing.T) {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	require.NoError(t, h.bot.Wait(ctx))
}

// shareLinks posts links as one message would and waits for the bot.
func (h *harness) shareLinks(t *testing.T, eventID string, links ...string) {
	t.Helper()
	h.sendEvent(t, eventID, linkShared(links...), 0)
}

// unfurlsOf decodes one chat.unfurl call: URL to attachment JSON as text.
func unfurlsOf(t *testing.T, raw json.RawMessage) map[string]string {
	t.Helper()
	var m map[string]json.RawMessage
	require.NoError(t, json.Unmarshal(raw, &m))
	out := map[string]string{}
	for k, v := range m {
		out[k] = jsonText(v)
	}
	return out
}

func TestLinkSharedUnfurlsMinutesLinks(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	approved, _ := h.demoMinutes(pagetest.PlainApproved)
	draft, _ := h.demoMinutes(func(m recordstest.Minutes) bool { return m.Status == "published_draft" })
	hidden, _ := h.demoMinutes(func(m recordstest.Minutes) bool { return m.Status == "draft" })
	links := []string{
		h.minutesLink(approved.ID),
		h.minutesLink(draft.ID),
		h.minutesLink(hidden.ID),               // minutes nobody may see
		"https://" + botDomain + "/healthz",    // the bot, but no minutes page
		"https://example.com/minutes/mtg_0301", // another site
	}
	h.shareLinks(t, "Ev_unfurl", links...)

	got := h.slack.Unfurls()
	require.Len(t, got, 1, "one chat.unfurl for the message")
	assert.Equal(t, "C0GENERAL", got[0].Channel)
	assert.Equal(t, "1767225600.000100", got[0].TS)
	unfurls := unfurlsOf(t, got[0].Unfurls)
	require.Len(t, unfurls, 2, "only the two published minutes unfurl: %v", unfurls)

	a := unfurls[h.minutesLink(approved.ID)]
	assert.Contains(t, a, "*"+blocks.Escape(approved.Title)+"*")
	assert.Contains(t, a, approved.Committee)
	assert.Contains(t, a, "Approved")
	assert.Contains(t, a, "Present:", "the first lines of the minutes")
	assert.Contains(t, a, "<"+h.minutesLink(approved.ID)+"|Read the full minutes>")

	d := unfurls[h.minutesLink(draft.ID)]
	assert.Contains(t, d, "*"+blocks.Escape(draft.Title)+"*")
	assert.Contains(t, d, "Draft", "a draft says so")

	// Slack redelivers the event (the ack was late, say): nothing happens twice.
	h.sendEvent(t, "Ev_unfurl", linkShared(links...), 1)
	assert.Len(t, h.slack.Unfurls(), 1, "a retried delivery does not unfurl again")
	assert.Len(t, h.slack.Calls("chat.unfurl"), 1)
}

func TestLinkSharedWithoutMinutesLinksUnfurlsNothing(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.shareLinks(t, "Ev_other",
		"https://example.com/minutes/mtg_0301",
		"https://"+botDomain+"/minutes/",
		"https://"+botDomain+"/minutes/mtg_0301/extra",
		"https://"+botDomain+"/minutes/mtg_0000", // no such meeting
	)
	assert.Empty(t, h.slack.Calls("chat.unfurl"))
	assert.Zero(t, h.records.Count("", "/meetings/mtg_0301"), "links that are not minutes pages cost no records call")
}

func TestLinkSharedIsAcknowledgedBeforeTheWork(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	m, _ := h.demoMinutes(pagetest.PlainApproved)
	h.records.InjectFault(recordstest.Fault{PathPrefix: "/meetings/", Latency: 1500 * time.Millisecond, Times: 1})

	start := time.Now()
	r, err := h.send.Event(t.Context(), "Ev_slow", linkShared(h.minutesLink(m.ID)), 0)
	require.NoError(t, err)
	assert.Equal(t, http.StatusOK, r.Status)
	assert.Less(t, time.Since(start), time.Second, "the ack does not wait for the records")
	assert.Empty(t, h.slack.Unfurls(), "the unfurl is still being worked on")

	h.settle(t)
	assert.Len(t, h.slack.Unfurls(), 1, "and then arrives")
}

// inComposer makes ev a link_shared event from the message composer,
// as Slack sends it: a "COMPOSER" channel, a message_ts that is no ts,
// source "composer" and the unfurl_id that addresses the unfurl.
func inComposer(ev map[string]any) map[string]any {
	ev["channel"], ev["message_ts"] = "COMPOSER", "6f1e0d5c-3b7a-4c8e-9f2d-1a2b3c4d5e6f"
	ev["source"], ev["unfurl_id"] = "composer", "Uxxxx.6f1e0d5c.0123abcd"
	return ev
}

// composerUnfurl is the one chat.unfurl call answering an inComposer
// event, checked as Slack takes it there: by unfurl_id and source, with
// no channel or ts. It returns the call's arguments.
func composerUnfurl(t *testing.T, h *harness) url.Values {
	t.Helper()
	calls := h.slack.Calls("chat.unfurl")
	require.Len(t, calls, 1)
	p := calls[0].Params
	assert.Equal(t, "Uxxxx.6f1e0d5c.0123abcd", p.Get("unfurl_id"))
	assert.Equal(t, "composer", p.Get("source"))
	assert.False(t, p.Has("channel"), "the composer is no channel")
	assert.False(t, p.Has("ts"))
	return p
}

func TestLinkSharedInTheComposer(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	m, _ := h.demoMinutes(pagetest.PlainApproved)
	h.sendEvent(t, "Ev_composer", inComposer(linkShared(h.minutesLink(m.ID))), 0)
	p := composerUnfurl(t, h)
	assert.Contains(t, jsonText([]byte(p.Get("unfurls"))), blocks.Escape(m.Title))
}

func TestUnfurlsAndPagesShareOneRecordsLoad(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	m, _ := h.demoMinutes(pagetest.PlainApproved)
	h.shareLinks(t, "Ev_cache", h.minutesLink(m.ID))
	require.Len(t, h.slack.Unfurls(), 1)
	// Lookups of the meeting itself; the pages also read the meetings
	// list once (minutes.KnownMeeting).
	calls := h.records.Count("", "/meetings/")
	require.Equal(t, 2, calls, "the meeting and its minutes")

	// Everyone in the channel now opens the link, and it is shared again.
	for range 5 {
		require.Equal(t, http.StatusOK, h.fetchPage("", pagetest.MinutesPath(m.ID), nil).status)
	}
	h.shareLinks(t, "Ev_cache2", h.minutesLink(m.ID))
	assert.Len(t, h.slack.Unfurls(), 2)
	assert.Equal(t, calls, h.records.Count("", "/meetings/"), "pages and unfurls came from the cache")
}

func TestEventsAreAcknowledged(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	tests := []struct {
		name string
		body string
		want string // the answer's body
	}{
		{"url_verification is answered with its challenge",
			`{"token":"x","challenge":"3eZbrw1aBm2rZgRNFdxV2595E9CY3gmdALWMmHkvFXO7tYXAYM8P","type":"url_verification"}`,
			`{"challenge":"3eZbrw1aBm2rZgRNFdxV2595E9CY3gmdALWMmHkvFXO7tYXAYM8P"}`},
		{"an unknown event type",
			`{"type":"event_callback","event_id":"Ev_reaction","team_id":"T0TEST","event":{"type":"reaction_added","user":"U0ALICE","reaction":"thumbsup","item":{"type":"message","channel":"C0GENERAL","ts":"1.2"},"event_ts":"1.3"}}`,
			""},
		{"an unknown envelope type",
			`{"type":"app_rate_limited","team_id":"T0TEST","minute_rate_limited":1518467820,"api_app_id":"A0RECORDS"}`,
			""},
		{"the Messages tab of the App Home",
			`{"type":"event_callback","event_id":"Ev_messages_tab","team_id":"T0TEST","event":{"type":"app_home_opened","user":"U0ALICE","channel":"D0ALICE","tab":"messages","event_ts":"1.4"}}`,
			""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := h.send.Post(t.Context(), "application/json", []byte(tt.body), nil)
			require.NoError(t, err)
			assert.Equal(t, http.StatusOK, r.Status)
			if tt.want == "" {
				assert.Empty(t, r.Body)
			} else {
				assert.JSONEq(t, tt.want, string(r.Body))
			}
		})
	}
	h.settle(t)
	assert.Empty(t, h.slack.Calls(""), "none of these calls Slack")
	assert.Zero(t, h.records.Count("", ""), "nor the records")
}
