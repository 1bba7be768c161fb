package bot

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/slack-go/slack"

	"github.com/recordsbot/recordsbot/actions"
	"github.com/recordsbot/recordsbot/apiclient"
	"github.com/recordsbot/recordsbot/apiclient/recordstest"
	"github.com/recordsbot/recordsbot/blocks"
	"github.com/recordsbot/recordsbot/calendar"
	"github.com/recordsbot/recordsbot/follows"
	"github.com/recordsbot/recordsbot/internal/lang"
	"github.com/recordsbot/recordsbot/internal/sampleorg"
	"github.com/recordsbot/recordsbot/internal/slackapi/slacktest"
	"github.com/recordsbot/recordsbot/internal/slackapi/slackusers"
	"github.com/recordsbot/recordsbot/internal/testworld"
	"github.com/recordsbot/recordsbot/minutes"
)

// The fuzz targets of package bot. Those that take whole request bodies
// drive the real handler, with the in-memory records service and the fake
// Slack API behind it, and check properties that must hold whatever Slack
// (or anyone holding the signing secret) sends: no panic, no 5xx (Slack
// retries those), every reply readable by Slack, and no status change
// written for someone who may not make it. Run one longer with
//
//	go test ./bot -run '^$' -fuzz '^FuzzBlockActionsPayload$' -fuzztime 10m -fuzzminimizetime 5s
//
// The handler targets take a millisecond or more an input, so the default
// minute spent minimising each new input would stall them for long spells.

const (
	fuzzSecret = "fuzz-signing-secret"
	fuzzAdmin  = "U0ADMIN"
)

// fuzzResponseURL is the response_url of the seeds, shaped like Slack's.
// Nothing is sent there: every post to a response_url goes to a postSink.
const fuzzResponseURL = "https://hooks.slack.com/actions/T0TEST/1700000000/fuzz"

// fuzzBot is the real handler with its fakes, shared by every iteration of
// one fuzz target in one process (iterations run one at a time).
type fuzzBot struct {
	srv     *Server
	records *recordstest.Server
	// slack is a fresh fake Slack for each input, so that its journal
	// holds that input's calls only and does not grow over a long run;
	// slackRT sends the bot's Web API calls to it, in process.
	slack   *slacktest.Server
	slackRT *inProcess
	users   []slacktest.User
	emails  map[string]string // Slack user ID -> email
	// responses records the bot's posts to response_urls: fuzzed payloads
	// name any URL, and none may leave the process.
	responses *postSink
	// sender builds Slack-shaped seeds.
	sender *slacktest.Sender
	// Seed material: alice's first open action and a meeting with minutes.
	alice, bob slacktest.User
	action     recordstest.Action
	meetingID  string
}

func newFuzzBot(f *testing.F) *fuzzBot {
	f.Helper()
	data := testworld.Dataset(time.Now())
	fb := &fuzzBot{emails: map[string]string{}, responses: &postSink{}, slackRT: &inProcess{}}
	fb.records = recordstest.NewServer(recordstest.WithDataset(data))
	f.Cleanup(fb.records.Close)

	users := append(sampleorg.SlackUsers(data.People),
		slacktest.User{ID: fuzzAdmin, Name: "admin", RealName: "Ada Admin", Email: "ada@admin.example"},
		slacktest.User{ID: "U0NOEMAIL", Name: "noemail", RealName: "No Email"})
	for _, u := range users {
		fb.emails[u.ID] = u.Email
		switch u.Name {
		case "alice":
			fb.alice = u
		case "bob":
			fb.bob = u
		}
	}
	for _, a := range data.Actions {
		if strings.EqualFold(a.AssigneeEmail, fb.alice.Email) && a.Status == "open" {
			fb.action = a
			break
		}
	}
	if len(data.Minutes) > 0 {
		fb.meetingID = data.Minutes[0].MeetingID
	}
	fb.users = users
	fb.freshSlack()
	f.Cleanup(func() { fb.slack.Close() })

	rc, err := apiclient.NewClient(fb.records.URL, recordstest.DefaultKey)
	if err != nil {
		f.Fatal(err)
	}
	api := slack.New(slacktest.DefaultToken, slack.OptionAPIURL("http://slack.fuzz/api/"),
		slack.OptionHTTPClient(&http.Client{Transport: fb.slackRT}))
	// Built here rather than by wire, which imports this package.
	mins := minutes.New(rc, minutes.Config{PublicURL: "https://records-bot.example.org", Public: true})
	fb.srv = NewServer(Config{
		SigningSecret: fuzzSecret,
		// Longer than Slack's 3 s, which these targets do not time: more
		// replies come inline, where the ack itself is checked.
		AckBudget: 5 * time.Second,
	}, Deps{
		Slack:      api,
		Actions:    actions.New(rc, slackusers.Directory(api), actions.Config{Admins: []string{fuzzAdmin}}),
		Minutes:    mins,
		Calendar:   calendar.New(calendar.Config{Minutes: mins}),
		Follows:    follows.New(follows.NewRules(follows.Settings{}, lang.English), follows.Deps{Meetings: mins}),
		HTTPClient: &http.Client{Transport: fb.responses},
	})
	f.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if err := fb.srv.Wait(ctx); err != nil {
			f.Error(err)
		}
	})
	fb.sender = &slacktest.Sender{Secret: fuzzSecret}
	return fb
}

// freshSlack replaces the fake Slack with a new one holding the same users.
func (fb *fuzzBot) freshSlack() {
	if fb.slack != nil {
		fb.slack.Close()
	}
	fb.slack = slacktest.NewServer(slacktest.WithUsers(fb.users...))
	fb.slackRT.set(fb.slack.Handler())
}

// inProcess is an http.RoundTripper that serves each request with a
// handler, without a network.
type inProcess struct {
	mu sync.Mutex
	h  http.Handler
}

func (p *inProcess) set(h http.Handler) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.h = h
}

func (p *inProcess) RoundTrip(r *http.Request) (*http.Response, error) {
	p.mu.Lock()
	h := p.h
	p.mu.Unlock()
	if r.Body == nil {
		r = r.Clone(r.Context())
		r.Body = http.NoBody
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, r)
	return rec.Result(), nil
}

// serve sends body to the handler, signed, and waits for every follow-up it
// caused, so an iteration's effects are complete when it returns.
func (fb *fuzzBot) serve(t *testing.T, contentType string, body []byte) *httptest.ResponseRecorder {
	t.Helper()
	fb.records.ResetRequests()
	fb.responses.reset()
	fb.freshSlack()
	req := httptest.NewRequestWithContext(t.Context(), http.MethodPost, "/slack/events", bytes.NewReader(body))
	ts := time.Now().Unix()
	req.Header.Set("Content-Type", contentType)
	req.Header.Set("X-Slack-Request-Timestamp", strconv.FormatInt(ts, 10))
	req.Header.Set("X-Slack-Signature", slacktest.Sign(fuzzSecret, ts, body))
	rec := httptest.NewRecorder()
	fb.srv.ServeHTTP(rec, req)
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	if err := fb.srv.Wait(ctx); err != nil {
		t.Fatalf("follow-ups still running: %v", err)
	}
	if rec.Code >= 500 {
		t.Fatalf("HTTP %d (Slack retries a 5xx): %s", rec.Code, rec.Body)
	}
	return rec
}

// checkWrites checks that every status change sent to the records service
// was made by the action's assignee or an admin, judged from the dataset
// and the fake Slack's profiles rather than by the bot's own logic.
func (fb *fuzzBot) checkWrites(t *testing.T, actor string) {
	t.Helper()
	for _, r := range fb.records.Requests() {
		if r.Method != http.MethodPut {
			continue
		}
		id, err := url.PathUnescape(strings.TrimPrefix(r.Path, "/api/v1/actions/"))
		if err != nil {
			t.Fatalf("PUT %s: %v", r.Path, err)
		}
		a, ok := fb.records.Action(id)
		if !ok {
			continue // no such action: nothing was written
		}
		email := fb.emails[actor]
		if actor != fuzzAdmin && (email == "" || !strings.EqualFold(a.AssigneeEmail, email)) {
			t.Fatalf("%s changed action %q assigned to %s", actor, id, a.AssigneeEmail)
		}
	}
}

// checkReports checks that no message reports a status change done unless
// the records service accepted one in this iteration.
func (fb *fuzzBot) checkReports(t *testing.T, texts []string) {
	t.Helper()
	written := false
	for _, r := range fb.records.Requests() {
		written = written || (r.Method == http.MethodPut && r.Status/100 == 2)
	}
	for _, text := range texts {
		// The bot's own confirmations start so; fuzzed text that it echoes
		// is escaped into the middle of a notice.
		if strings.HasPrefix(text, ":white_check_mark:") && !strings.Contains(text, "Shared the minutes") && !written {
			t.Fatalf("reported done with no change accepted: %q", text)
		}
	}
}

// checkReply checks that a reply to Slack is empty or a message Slack
// accepts: valid JSON, text or blocks, and blocks within Block Kit's limits.
func checkReply(t *testing.T, what string, body []byte) {
	t.Helper()
	if len(bytes.TrimSpace(body)) == 0 {
		return
	}
	var m struct {
		Text   string            `json:"text"`
		Blocks []json.RawMessage `json:"blocks"`
	}
	if err := json.Unmarshal(body, &m); err != nil {
		t.Fatalf("%s: not JSON (%v): %s", what, err, body)
	}
	if err := blocks.CheckMessage(blocks.Message{Text: m.Text, Blocks: blocks.RawBlocks(m.Blocks)}); err != nil {
		t.Fatalf("%s: Slack would refuse it: %v\n%s", what, err, body)
	}
}

// postSink answers every request with 200 and keeps the bodies: the bot's
// response_url client in the fuzz targets.
type postSink struct {
	mu    sync.Mutex
	posts [][]byte
}

func (s *postSink) RoundTrip(r *http.Request) (*http.Response, error) {
	b, err := io.ReadAll(r.Body)
	r.Body.Close()
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	s.posts = append(s.posts, b)
	s.mu.Unlock()
	return &http.Response{StatusCode: http.StatusOK, Header: http.Header{}, Body: http.NoBody, Request: r}, nil
}

func (s *postSink) reset() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.posts = nil
}

func (s *postSink) all() [][]byte {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([][]byte(nil), s.posts...)
}

func FuzzSlashCommandBody(f *testing.F) {
	fb := newFuzzBot(f)
	ru := fuzzResponseURL
	form := func(u slacktest.User, command, text string) []byte {
		return []byte(fb.sender.CommandForm(slacktest.Command{User: u, Command: command, Text: text}, ru).Encode())
	}
	admin := slacktest.User{ID: fuzzAdmin, Name: "admin"}
	for _, s := range [][]byte{
		form(fb.alice, "/actions", ""),
		form(fb.alice, "/actions", "overdue"),
		form(fb.alice, "/actions", "all"),
		form(fb.alice, "/actions", "help"),
		// Someone else first: the assignee's change would leave nothing to do.
		form(fb.bob, "/actions", "complete "+fb.action.ID),
		form(fb.alice, "/actions", "complete "+fb.action.ID),
		form(admin, "/actions", "defer "+fb.action.ID),
		form(fb.alice, "/actions", "<@"+fb.bob.ID+"|bob> in-progress"),
		form(fb.alice, "/actions", "@bob"),
		form(fb.alice, "/actions", "meeting "+fb.meetingID),
		form(fb.alice, "/actions", "<!channel> & <https://evil.example|x>"),
		form(fb.alice, "/minutes", ""),
		form(fb.alice, "/minutes", fb.meetingID),
		form(fb.alice, "/meetings", ""),
		form(fb.alice, "/meetings", "next"),
		form(fb.alice, "/meetings", fb.meetingID),
		form(fb.alice, "/frobnicate", "now"),
		form(slacktest.User{ID: "U0NOBODY"}, "/actions", ""),
		form(slacktest.User{ID: "U0NOEMAIL", Name: "noemail"}, "/actions", ""),
		[]byte("ssl_check=1&token=x"),
		[]byte("command=%2Factions&text=%E2%80%AEreversed&user_id="),
		[]byte("command=&command=%2Factions"),
		[]byte("%zz"),
		[]byte(""),
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		rec := fb.serve(t, "application/x-www-form-urlencoded", body)
		if rec.Code != http.StatusOK {
			return // a refused form (400): Slack shows nothing, and retries nothing
		}
		checkReply(t, "ack", rec.Body.Bytes())
		texts := []string{replyText(rec.Body.Bytes())}
		for _, p := range fb.responses.all() {
			checkReply(t, "follow-up", p)
			texts = append(texts, replyText(p))
		}
		form, _ := url.ParseQuery(string(body)) // as the handler reads it
		fb.checkWrites(t, form.Get("user_id"))
		fb.checkReports(t, texts)
	})
}

// replyText is the top-level text of a reply, or "".
func replyText(b []byte) string {
	var m struct {
		Text string `json:"text"`
	}
	_ = json.Unmarshal(b, &m) // checkReply has judged the JSON already
	return m.Text
}

func FuzzBlockActionsPayload(f *testing.F) {
	fb := newFuzzBot(f)
	ru := fuzzResponseURL
	button := func(actionID, value string) json.RawMessage {
		b, _ := json.Marshal(map[string]any{"type": "button", "action_id": actionID, "value": value,
			"text": map[string]any{"type": "plain_text", "text": "Go"}})
		return b
	}
	status := func(st string) json.RawMessage {
		return button(blocks.ActionStatusPrefix+st, blocks.StatusValue(st, fb.action.ID, "-"))
	}
	overflow, _ := json.Marshal(map[string]any{"type": "overflow", "action_id": blocks.ActionStatusPrefix + "menu", "options": []any{
		map[string]any{"text": map[string]any{"type": "plain_text", "text": "Defer"}, "value": blocks.StatusValue("deferred", fb.action.ID, "s=all")},
		map[string]any{"text": map[string]any{"type": "plain_text", "text": "Cancel"}, "value": blocks.StatusValue("cancelled", fb.action.ID, "")},
	}})
	row := blocks.ActionRowBlocks(blocks.RowOf(&apiclient.Action{ID: fb.action.ID, Title: fb.action.Title, Status: apiclient.StatusOpen}, actions.View{MayChange: true}, "", nil))
	rowJSON, _ := json.Marshal(row)
	admin := slacktest.User{ID: fuzzAdmin, Name: "admin"}
	clicks := []slacktest.Click{
		// Someone else first: the assignee's change would leave nothing to do.
		{User: fb.bob, Ephemeral: true, BlockID: "b", Element: status("complete")},
		{User: fb.alice, Ephemeral: true, BlockID: "b", Element: status("complete")},
		{User: admin, Ephemeral: true, BlockID: "b", Element: status("in_progress")},
		{User: fb.alice, Ephemeral: true, BlockID: "b", Element: overflow, Option: blocks.StatusValue("deferred", fb.action.ID, "s=all")},
		{User: fb.alice, ChannelID: "D0ALICE", MessageTS: "1700000000.000100", MessageBlocks: rowJSON, BlockID: "action:" + fb.action.ID, Element: status("complete")},
		{User: fb.alice, View: json.RawMessage(`{"id":"V0HOME","type":"home","blocks":[]}`), BlockID: "b", Element: status("open")},
		{User: fb.alice, Ephemeral: true, BlockID: "b", Element: button(blocks.ActionActionsMore, `{"o":10,"s":"all"}`)},
		{User: fb.alice, Ephemeral: true, BlockID: "b", Element: button(blocks.ActionMeetingsNext, `{}`)},
		{User: fb.alice, Ephemeral: true, BlockID: "b", Element: button(blocks.ActionMeetingAgenda, fb.meetingID)},
		{User: fb.alice, Ephemeral: true, BlockID: "b", Element: button(blocks.ActionMeetingMinutes, fb.meetingID)},
		{User: fb.alice, Ephemeral: true, BlockID: "b", Element: button(blocks.ActionMinutesShare, fb.meetingID)},
		{User: fb.alice, View: json.RawMessage(`{"id":"V0HOME"}`), BlockID: "b", Element: button(blocks.ActionHomeMore, "10")},
		{User: fb.alice, Ephemeral: true, BlockID: "b", Element: button("launch:rocket", "now")},
	}
	for _, c := range clicks {
		p, err := fb.sender.BlockActions(c, ru)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(string(p))
	}
	for _, s := range []string{
		`{"type":"block_actions","user":{"id":"U0BOB"},"actions":[{"action_id":"status:complete","value":"complete|` + fb.action.ID + `|-"}],"response_url":"` + ru + `"}`,
		`{"type":"block_actions","user":{"id":"U0ALICE"},"container":{"type":"message","is_ephemeral":false},"message":{"ts":"1","blocks":[{"type":"hologram"}]},"actions":[{"action_id":"status:complete","value":"complete|` + fb.action.ID + `|"}]}`,
		`{"type":"view_submission"}`,
		`{"type":"block_actions","actions":[]}`,
		`{"type":"block_actions","actions":[{"selected_option":null}]}`,
		`{`,
		`null`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, payload string) {
		body := []byte(url.Values{"payload": {payload}}.Encode())
		rec := fb.serve(t, "application/x-www-form-urlencoded", body)
		if rec.Code != http.StatusOK {
			t.Fatalf("HTTP %d for a signed payload: Slack would show the user an error", rec.Code)
		}
		var texts []string
		for _, p := range fb.responses.all() {
			checkReply(t, "response_url post", p)
			texts = append(texts, replyText(p))
		}
		for _, c := range fb.slack.Calls("chat.update") {
			if c.Status == http.StatusOK {
				texts = append(texts, c.Params.Get("text"))
			}
		}
		var in struct {
			User struct {
				ID string `json:"id"`
			} `json:"user"`
		}
		_ = json.Unmarshal([]byte(payload), &in) // as the bot reads it; on failure no PUT is allowed
		fb.checkWrites(t, in.User.ID)
		fb.checkReports(t, texts)
	})
}

func FuzzEventsBody(f *testing.F) {
	fb := newFuzzBot(f)
	event := func(inner any) string {
		b, _ := json.Marshal(map[string]any{
			"token": "x", "team_id": "T0TEST", "api_app_id": "A0RECORDS", "type": "event_callback",
			"event_id": "Ev0FUZZ", "event_time": 1700000000, "event": inner,
		})
		return string(b)
	}
	for _, s := range []string{
		`{"type":"url_verification","challenge":"3eZbrw1aBm2rZgRNFdxV2595E9CY3gmdALWMmHkvFXO7tYXAYM8P","token":"x"}`,
		event(map[string]any{"type": "app_home_opened", "user": fb.alice.ID, "channel": "D0ALICE", "tab": "home", "event_ts": "1700000000.000100"}),
		event(map[string]any{"type": "app_home_opened", "user": fb.alice.ID, "tab": "messages"}),
		event(map[string]any{"type": "link_shared", "channel": "C0GENERAL", "user": fb.alice.ID, "message_ts": "1700000000.000200",
			"links": []any{map[string]any{"domain": "records-bot.example.org", "url": "https://records-bot.example.org/minutes/" + fb.meetingID}}}),
		event(map[string]any{"type": "link_shared", "channel": "COMPOSER", "user": fb.alice.ID, "message_ts": "4f0e-uuid",
			"unfurl_id": "U1", "source": "composer", "links": []any{map[string]any{"url": "https://records-bot.example.org/minutes/%2e%2e"}}}),
		event(map[string]any{"type": "message", "text": "hello"}),
		event(nil),
		`{"type":"event_callback","event":{"type":"link_shared","links":null}}`,
		`{"type":"app_rate_limited","minute_rate_limited":1518467820}`,
		`{"type":`,
		`[]`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, body string) {
		rec := fb.serve(t, "application/json", []byte(body))
		if rec.Code != http.StatusOK {
			t.Fatalf("HTTP %d for a signed event: Slack would retry it", rec.Code)
		}
		if b := rec.Body.Bytes(); len(b) > 0 && !json.Valid(b) {
			t.Fatalf("reply is not JSON: %s", b)
		}
		if n := fb.records.Count(http.MethodPut, "/"); n > 0 {
			t.Fatalf("an event changed %d actions", n)
		}
	})
}

func FuzzParseActionsText(f *testing.F) {
	for _, s := range []string{
		"", "help", "?", "overdue", "all", "in-progress", "mine", "complete", "done", "complete 42",
		"done `act-1`", "cancel", "reopen \"a b\"", "<@U024BE7LH|bob>", "<@W0123ABC>", "<@U1|x> overdue complete",
		"@bob", "meeting FIN-2026-07", "meeting", "meeting `a&b`", "OVERDUE All", "frobnicate <!channel>",
		"deferred", "  start   x|y|z  ", "\u00a0overdue", "meeting a=b&c=d%20", "<@U1|x", "<@0>", "<@u1|lower>",
		// Other languages' command words (lang.Keyword), accents or not.
		"en-retard", "ÜBERFÄLLIG", "terminées 42", "terminer", "réunion FIN-2026-07", "reunion", "ayuda", "sesión", "fait `a`",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		q, note, ok := parseActionsText(lang.English, decodeCommandText(text))
		if strings.ContainsAny(note, "<>") {
			t.Fatalf("note %q carries unescaped input", note)
		}
		if !ok {
			if q.verb != "" {
				t.Fatalf("refused text %q still carries a change to %q", text, q.verb)
			}
			return
		}
		if q.verb != "" {
			if q.target == "" || !q.verb.Valid() {
				t.Fatalf("change %q of %q", q.verb, q.target)
			}
			return
		}
		// The query a page was built from survives its status buttons:
		// what context writes, parseContext reads back the same.
		ctx := q.context()
		if strings.Contains(ctx, "|") {
			t.Fatalf("context %q holds '|', which splits status values", ctx)
		}
		got, ok := parseContext(ctx)
		if !ok {
			t.Fatalf("context %q of %q does not parse", ctx, text)
		}
		if got != q {
			t.Fatalf("round trip of %q through %q: got %+v, want %+v", text, ctx, got, q)
		}
	})
}

func FuzzParseStatusValue(f *testing.F) {
	f.Add("complete|act-1|-", "complete", "act-1", "-")
	f.Add("in_progress|a|b|s=all&o=10", "deferred", "a|b", "w=U1&d=1")
	f.Add("complete||-", "open", "", "")
	f.Add("explode|1|", "explode", "1", "")
	f.Add("complete", "cancelled", "id", "x|y")
	f.Add("||", "", "é", "m=%7C")
	f.Fuzz(func(t *testing.T, raw, target, id, pageCtx string) {
		st, gotID, gotCtx, ok := parseStatusValue(raw)
		if ok {
			if !st.Valid() || gotID == "" || strings.Contains(gotCtx, "|") {
				t.Fatalf("parse %q: status %q, id %q, context %q", raw, st, gotID, gotCtx)
			}
			if back := blocks.StatusValue(string(st), gotID, gotCtx); back != raw {
				t.Fatalf("parse %q rebuilds as %q", raw, back)
			}
		}
		// What the blocks package builds within its contract (a known
		// status, an ID, a context without '|'), the bot reads back.
		if !apiclient.Status(target).Valid() || id == "" || strings.Contains(pageCtx, "|") {
			return
		}
		v := blocks.StatusValue(target, id, pageCtx)
		st, gotID, gotCtx, ok = parseStatusValue(v)
		if !ok || string(st) != target || gotID != id || gotCtx != pageCtx {
			t.Fatalf("StatusValue(%q, %q, %q) = %q parses as %q, %q, %q, %v", target, id, pageCtx, v, st, gotID, gotCtx, ok)
		}
	})
}
