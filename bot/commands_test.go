package bot_test

import (
	"bytes"
	"context"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/recordsbot/recordsbot/actions"
	"github.com/recordsbot/recordsbot/apiclient/recordstest"
	"github.com/recordsbot/recordsbot/bot"
	"github.com/recordsbot/recordsbot/internal/slackapi/slacktest"
)

func TestSlackEndpointRefusesUnsignedRequests(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	body := []byte(h.send.CommandForm(slacktest.Command{User: h.person("alice"), Command: "/actions"}, "http://127.0.0.1:1/x").Encode())
	post := func(ts, sig string, b []byte) *http.Response {
		req, err := http.NewRequestWithContext(t.Context(), http.MethodPost, h.send.URL, bytes.NewReader(b))
		require.NoError(t, err)
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.Header.Set("X-Slack-Request-Timestamp", ts)
		req.Header.Set("X-Slack-Signature", sig)
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		resp.Body.Close()
		return resp
	}
	now := time.Now().Unix()
	ts := func(d time.Duration) string { return itoa(time.Now().Add(d).Unix()) }
	good := slacktest.Sign(testSecret, now, body)
	assert.Equal(t, http.StatusOK, post(itoa(now), good, body).StatusCode, "correctly signed")
	assert.Equal(t, http.StatusUnauthorized, post(itoa(now), flipLast(good), body).StatusCode, "bad signature")
	old := time.Now().Add(-10 * time.Minute).Unix()
	assert.Equal(t, http.StatusUnauthorized, post(itoa(old), slacktest.Sign(testSecret, old, body), body).StatusCode, "10 minutes old")
	assert.Equal(t, http.StatusUnauthorized, post(ts(0), "", body).StatusCode, "unsigned")
	assert.Equal(t, http.StatusUnauthorized, post(ts(0), slacktest.Sign("wrong", now, body), body).StatusCode, "wrong secret")
	big := bytes.Repeat([]byte("a"), 2<<20)
	assert.Equal(t, http.StatusRequestEntityTooLarge, post(itoa(now), slacktest.Sign(testSecret, now, big), big).StatusCode, "over the size cap")
	// Nothing unsigned reached the records service: only the signed
	// command's one fetch of the actions still to do (open, in progress).
	assert.Equal(t, 2, h.records.Count(http.MethodGet, "/actions"))
}

func flipLast(s string) string {
	if s[len(s)-1] == '0' {
		return s[:len(s)-1] + "1"
	}
	return s[:len(s)-1] + "0"
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

func TestSSLCheckAndMalformedBodies(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	r, err := h.send.Post(t.Context(), "application/x-www-form-urlencoded", []byte("ssl_check=1&token=x"), nil)
	require.NoError(t, err)
	assert.Equal(t, http.StatusOK, r.Status)
	assert.Empty(t, r.Body)

	r, err = h.send.Post(t.Context(), "application/x-www-form-urlencoded", []byte("%zz=%%"), nil)
	require.NoError(t, err)
	assert.Equal(t, http.StatusBadRequest, r.Status, "a signed but malformed form")

	r, err = h.send.Post(t.Context(), "application/x-www-form-urlencoded", []byte("payload=%7Bnot+json"), nil)
	require.NoError(t, err)
	assert.Equal(t, http.StatusOK, r.Status, "a malformed payload is acked, not retried forever")

	r, err = h.send.Post(t.Context(), "application/json", []byte(`{"type":"url_verification","challenge":"3eZbrw1aBm2rZgRNFdxV2595E9CY3gmdALWMmHkvFXO7tYXAYM8P","token":"x"}`), nil)
	require.NoError(t, err)
	assert.Equal(t, http.StatusOK, r.Status)
	assert.JSONEq(t, `{"challenge":"3eZbrw1aBm2rZgRNFdxV2595E9CY3gmdALWMmHkvFXO7tYXAYM8P"}`, string(r.Body))

	r, err = h.send.Post(t.Context(), "application/json", []byte(`{"type":`), nil)
	require.NoError(t, err)
	assert.Equal(t, http.StatusOK, r.Status)
}

func TestActionsListsTheCallersOpenActions(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	alice := h.person("alice")
	m, _ := h.slash(alice, "/actions", "")
	assert.Equal(t, "ephemeral", m.ResponseType, "personal data is ephemeral")
	want := h.openActionsOf(alice.Email)
	require.NotEmpty(t, want, "the demo dataset gives alice open actions")
	for _, a := range want {
		assert.Contains(t, m.all(), `"complete|`+a.ID, "a Complete button for %s", a.ID)
	}
	// Nobody else's actions.
	for _, a := range h.records.Actions() {
		if !strings.EqualFold(a.AssigneeEmail, alice.Email) {
			assert.NotContains(t, m.all(), "|"+a.ID+`"`, "someone else's action %s", a.ID)
		}
	}
	assert.Contains(t, m.all(), "<!date^", "deadlines use Slack date formatting")
}

func TestActionsOverdueFirst(t *testing.T) {
	t.Parallel()
	now := time.Now()
	h := newHarness(t, withDataset(func(d *recordstest.Dataset) {
		email := d.People[0].Email
		d.Actions = []recordstest.Action{
			{ID: "later", Title: "Later", Status: "open", AssigneeEmail: email, Deadline: now.Add(10 * 24 * time.Hour)},
			{ID: "undated", Title: "Undated", Status: "open", AssigneeEmail: email},
			{ID: "overdue", Title: "Overdue", Status: "in_progress", AssigneeEmail: email, Deadline: now.Add(-48 * time.Hour), DateOnly: true},
			{ID: "soon", Title: "Soon", Status: "open", AssigneeEmail: email, Deadline: now.Add(24 * time.Hour)},
			{ID: "done", Title: "Done", Status: "complete", AssigneeEmail: email, Deadline: now.Add(-48 * time.Hour)},
		}
	}))
	u := h.users[h.data.People[0].SlackID]
	m, _ := h.slash(u, "/actions", "")
	s := m.all()
	order := []string{`"action:overdue"`, `"action:soon"`, `"action:later"`, `"action:undated"`}
	last := -1
	for _, id := range order {
		i := strings.Index(s, id)
		require.GreaterOrEqual(t, i, 0, "%s missing in %s", id, s)
		assert.Greater(t, i, last, "%s out of order", id)
		last = i
	}
	assert.NotContains(t, s, `"action:done"`, "complete actions are not in the default list")
	assert.Contains(t, s, "Overdue", "the overdue row is flagged")

	m, _ = h.slash(u, "/actions", "overdue")
	assert.Contains(t, m.all(), `"action:overdue"`)
	assert.NotContains(t, m.all(), `"action:soon"`)

	m, _ = h.slash(u, "/actions", "complete")
	assert.Contains(t, m.all(), `"action:done"`, "/actions complete lists completed actions")
	m, _ = h.slash(u, "/actions", "all")
	for _, id := range []string{"overdue", "soon", "later", "undated", "done"} {
		assert.Contains(t, m.all(), `"action:`+id+`"`)
	}
}

func TestActionsStatusChangeByCommand(t *testing.T) {
	t.Parallel()
	h := newHarness(t, withAdmins("U0ADMIN"))
	h.addUser(slacktest.User{ID: "U0ADMIN", Name: "admin", RealName: "Ada Admin", Email: "ada@admin.example"})
	alice, bob := h.person("alice"), h.person("bob")
	a := h.openActionsOf(alice.Email)[0]

	// Someone else: refused, and no PUT is sent.
	m, _ := h.slash(bob, "/actions", "complete "+a.ID)
	assert.Contains(t, m.Text, "Only the action's assignee or an admin")
	assert.Zero(t, h.records.Count(http.MethodPut, "/actions/"), "no PUT for a refused change")

	// The assignee.
	m, _ = h.slash(alice, "/actions", "done "+a.ID)
	assert.Equal(t, "ephemeral", m.ResponseType)
	assert.Contains(t, m.Text, "marked complete")
	got, ok := h.records.Action(a.ID)
	require.True(t, ok)
	assert.Equal(t, "complete", got.Status)
	assert.Equal(t, 1, h.records.Count(http.MethodPut, "/actions/"))

	// Again: already so, nothing sent.
	m, _ = h.slash(alice, "/actions", "complete "+a.ID)
	assert.Contains(t, m.Text, "already")
	assert.Equal(t, 1, h.records.Count(http.MethodPut, "/actions/"))

	// An admin may change anyone's.
	m, _ = h.slash(h.users["U0ADMIN"], "/actions", "reopen "+a.ID)
	assert.Contains(t, m.Text, "moved back to open")
	got, _ = h.records.Action(a.ID)
	assert.Equal(t, "open", got.Status)

	// An ID that does not exist.
	m, _ = h.slash(alice, "/actions", "start no-such-action")
	assert.Contains(t, m.Text, "doesn't exist")
	assert.Equal(t, 2, h.records.Count(http.MethodPut, "/actions/"))
}

// TestStatusChangeByCommandNamesTheAssignee: an admin's /actions complete
// on Bob's action names Bob, as a click on the same action does: both draw
// what the actions domain decides the admin sees (actions.ViewOf); the
// assignee's own answer names nobody.
func TestStatusChangeByCommandNamesTheAssignee(t *testing.T) {
	t.Parallel()
	h := newHarness(t, withAdmins("U0CAROL"))
	bob, carol := h.person("bob"), h.person("carol")
	target := h.openActionsOf(bob.Email)[0]

	m, _ := h.slash(carol, "/actions", "complete "+target.ID)
	assert.Contains(t, m.Text, "marked complete")
	assert.Contains(t, m.all(), "Assigned to "+target.AssigneeName, "an admin changing Bob's action sees whose it is, as a click shows")
	assert.Contains(t, m.all(), `"open|`+target.ID+`|`, "and may change it back (Reopen)")

	m, _ = h.slash(bob, "/actions", "start "+target.ID)
	assert.Contains(t, m.Text, "started")
	assert.NotContains(t, m.all(), "Assigned to ", "Bob's own answer does not name him")
}

// TestActionsOfSomeoneElse is /actions @user where everyone may see
// anyone's (ACTIONS_VISIBILITY=organisation); TestWhoSeesWhat has the
// default.
func TestActionsOfSomeoneElse(t *testing.T) {
	t.Parallel()
	h := newHarness(t, withAdmins("U0ALICE"), withVisibility(actions.VisibleOrganisation))
	alice, bob, carol := h.person("alice"), h.person("bob"), h.person("carol")
	bobs := h.openActionsOf(bob.Email)
	require.NotEmpty(t, bobs)

	m, _ := h.slash(carol, "/actions", "@bob") // Slack sends <@U0BOB|bob>
	for _, a := range bobs {
		assert.Contains(t, m.all(), `"action:`+a.ID+`"`)
	}
	assert.NotContains(t, m.all(), `"action_id":"status:`, "carol may not change bob's actions: no buttons")

	m, _ = h.slash(alice, "/actions", "@bob")
	assert.Contains(t, m.all(), `"complete|`+bobs[0].ID, "alice is an admin: buttons")

	m, _ = h.slashRaw(alice, "/actions", "<@"+bob.ID+">")
	assert.Contains(t, m.all(), `"complete|`+bobs[0].ID, "a mention without a name, as Slack sends from some clients")

	m, _ = h.slash(carol, "/actions", "@nobody")
	assert.Contains(t, m.all(), "autocomplete", "a name Slack could not resolve gets advice")
}

func TestActionsHelpAndUnknownText(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	alice := h.person("alice")
	for _, text := range []string{"help", "frobnicate", "cancel"} {
		m, _ := h.slash(alice, "/actions", text)
		assert.Equal(t, "ephemeral", m.ResponseType)
		assert.Contains(t, m.all(), "/actions overdue", "help for %q", text)
	}
	m, _ := h.slash(alice, "/actions", "frobnicate")
	assert.Contains(t, m.all(), "frobnicate")
	assert.Zero(t, h.records.Count(http.MethodPut, "/"))
}

func TestActionsUnmappedUsers(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	m, _ := h.slash(h.users["U0NOEMAIL"], "/actions", "")
	assert.Contains(t, m.Text, "USER_MAP", "a user with no email is told how to get mapped")
	m, _ = h.slash(h.users["U0STRANGER"], "/actions", "")
	assert.Contains(t, m.all(), "Nothing open")
	assert.Contains(t, m.all(), "USER_MAP")
}

func TestActionsUserMap(t *testing.T) {
	t.Parallel()
	h := newHarness(t, withActions(func(c *actions.Config) {
		// The records call alice "A. Adams"; Slack doesn't share U0NOEMAIL's email.
		c.UserMap = actions.NewUserMap(map[string]string{"a. adams": "U0NOEMAIL"})
	}), withDataset(func(d *recordstest.Dataset) {
		d.Actions = append(d.Actions, recordstest.Action{ID: "mapped-1", Title: "Mapped by name", Status: "open", AssigneeName: "A. Adams"})
	}))
	m, _ := h.slash(h.users["U0NOEMAIL"], "/actions", "")
	assert.Contains(t, m.all(), `"action:mapped-1"`)
	assert.Contains(t, m.all(), `"complete|mapped-1|`, "a mapped user may change their own action")
}

func TestMrkdwnInjectionIsEscaped(t *testing.T) {
	t.Parallel()
	h := newHarness(t, withDataset(func(d *recordstest.Dataset) {
		d.Actions = append(d.Actions, recordstest.Action{ID: "evil", Title: "<!channel> <@U123> & co <https://evil.example|click>", Status: "open", AssigneeEmail: d.People[0].Email})
	}))
	m, _ := h.slash(h.users[h.data.People[0].SlackID], "/actions", "")
	s := m.all()
	assert.Contains(t, s, "&lt;!channel&gt; &lt;@U123&gt; &amp; co &lt;https://evil.example|click&gt;")
	assert.NotContains(t, s, "<!channel>")
	assert.NotContains(t, s, "<@U123>")
	assert.NotContains(t, s, "<https://evil")
}

func TestSlowRecordsAnswerViaResponseURL(t *testing.T) {
	t.Parallel()
	h := newHarness(t, withConfig(func(c *bot.Config) { c.AckBudget = 150 * time.Millisecond }))
	h.records.InjectFault(recordstest.Fault{Method: http.MethodGet, PathPrefix: "/actions", Latency: 600 * time.Millisecond})
	alice := h.person("alice")
	start := time.Now()
	m, r := h.slash(alice, "/actions", "")
	assert.Less(t, time.Since(start), time.Second, "acked within the budget, long before the records answer")
	assert.Empty(t, r.Body, "an empty ack: nothing on screen that would stay above the answer")
	assert.Empty(t, m.Text)
	posts := h.responses(r.ResponseURLID, 1)
	require.Len(t, posts, 1, "exactly one result")
	assert.Equal(t, "ephemeral", posts[0].ResponseType)
	assert.Contains(t, posts[0].all(), `"complete|`+h.openActionsOf(alice.Email)[0].ID)
	// Nothing more arrives once the bot's work is done, and the user sees
	// exactly one message: the answer.
	h.settle(t)
	assert.Len(t, h.slack.ResponsePosts(r.ResponseURLID), 1)
	seen := h.screen(alice, 1)
	require.Len(t, seen, 1, "one message on screen")
	assert.Contains(t, string(seen[0].Blocks), `complete|`+h.openActionsOf(alice.Email)[0].ID)
}

func TestRecordsFailuresGetAClearAnswer(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		fault recordstest.Fault
		want  string
	}{
		{"server error", recordstest.Fault{Status: 500}, "isn't answering"},
		{"unavailable, retried", recordstest.Fault{Status: 503}, "isn't answering"},
		{"rate limited", recordstest.Fault{Status: 429, RetryAfter: "30"}, "busy"},
		{"bad key", recordstest.Fault{Status: 401}, "API key was refused"},
		{"missing scope", recordstest.Fault{Status: 403, Body: `{"error":"forbidden","message":"missing scope actions:read"}`}, "actions:read"},
		{"malformed", recordstest.Fault{Malformed: true}, "couldn't read"},
		{"reset mid-body", recordstest.Fault{ResetMidBody: true}, "isn't answering"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t)
			h.records.InjectFault(tt.fault)
			start := time.Now()
			m, _ := h.slash(h.person("alice"), "/actions", "")
			assert.Less(t, time.Since(start), 3*time.Second, "the user hears within Slack's 3 s")
			assert.Equal(t, "ephemeral", m.ResponseType)
			assert.Contains(t, m.Text, tt.want)
			assert.NotContains(t, m.Text, "records api:", "no raw Go error")
		})
	}
}

func TestRecordsServiceGone(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.records.Close()
	start := time.Now()
	m, _ := h.slash(h.person("alice"), "/minutes", "")
	assert.Less(t, time.Since(start), 3*time.Second)
	assert.Contains(t, m.Text, "isn't answering")
}

var _ = context.Background

// With the cache on, a burst of commands costs one records call, and a
// change made through the bot shows at once (the cached row is updated),
// without waiting for the TTL or reading the list again.
func TestActionsCacheSharesAndSeesOwnChanges(t *testing.T) {
	t.Parallel()
	h := newHarness(t, withActions(func(c *actions.Config) { c.CacheTTL = time.Hour }))
	alice, bob := h.person("alice"), h.person("bob")
	for range 5 {
		h.slash(alice, "/actions", "")
		h.slash(bob, "/actions", "all")
	}
	// One fetch of each list: the actions still to do (open and in
	// progress, a call each), and the other three statuses that "all"
	// asks for.
	const oneFetchEach = 5
	assert.Equal(t, oneFetchEach, h.records.Count(http.MethodGet, "/actions"), "ten commands, one fetch of each list")

	a := h.openActionsOf(alice.Email)[0]
	h.slash(alice, "/actions", "complete "+a.ID)
	m, _ := h.slash(alice, "/actions", "")
	assert.NotContains(t, m.all(), `"action:`+a.ID+`"`, "the completed action left the open list at once")
	m, _ = h.slash(alice, "/actions", "complete")
	assert.Contains(t, m.all(), `"action:`+a.ID+`"`)
	assert.Equal(t, oneFetchEach, h.records.Count(http.MethodGet, "/actions"), "still one fetch of each list")
}

// With the cache off (ACTIONS_CACHE_TTL=0), every command reads the
// records service, filtered by status on the server.
func TestActionsCacheOff(t *testing.T) {
	t.Parallel()
	h := newHarness(t, withActions(func(c *actions.Config) { c.CacheTTL = -1 }))
	alice := h.person("alice")
	h.slash(alice, "/actions", "open")
	h.slash(alice, "/actions", "open")
	assert.Equal(t, 2, h.records.Count(http.MethodGet, "/actions"))
	var filtered int
	for _, r := range h.records.Requests() {
		if r.Method == http.MethodGet && strings.Contains(r.Query, "status=open") {
			filtered++
		}
	}
	assert.Equal(t, 2, filtered, "the status filter goes to the server")
}

// /actions meeting <id or reference> lists that meeting's actions, whoever
// they are assigned to, with buttons only on the caller's own.
// TestActionsOfAMeeting is a meeting's whole list, as everyone sees it
// under ACTIONS_VISIBILITY=organisation; TestWhoSeesWhat has the default.
func TestActionsOfAMeeting(t *testing.T) {
	t.Parallel()
	h := newHarness(t, withVisibility(actions.VisibleOrganisation))
	alice := h.person("alice")
	byMeeting := map[string][]recordstest.Action{}
	for _, a := range h.records.Actions() {
		if a.Status == "open" || a.Status == "in_progress" {
			byMeeting[a.MeetingID] = append(byMeeting[a.MeetingID], a)
		}
	}
	var meeting recordstest.Meeting
	for _, m := range h.records.Meetings() {
		if len(byMeeting[m.ID]) >= 2 {
			meeting = m
			break
		}
	}
	require.NotEmpty(t, meeting.ID, "the dataset has a meeting with several open actions")

	for _, ref := range []string{meeting.ID, meeting.Reference} {
		m, _ := h.slash(alice, "/actions", "meeting "+ref)
		s := m.all()
		assert.Contains(t, s, "Actions from", ref)
		for _, a := range byMeeting[meeting.ID] {
			assert.Contains(t, s, `"action:`+a.ID+`"`, "%s lists %s", ref, a.ID)
			if strings.EqualFold(a.AssigneeEmail, alice.Email) {
				assert.Contains(t, s, `"complete|`+a.ID+`|`, "alice's own action has buttons")
			} else {
				assert.NotContains(t, s, `"complete|`+a.ID+`|`, "someone else's has none")
				assert.Contains(t, s, "Assigned to "+a.AssigneeName, "and says whose it is")
			}
		}
	}
	m, _ := h.slash(alice, "/actions", "meeting NO-SUCH-MEETING")
	assert.Contains(t, m.Text, "couldn't find a meeting")
}
