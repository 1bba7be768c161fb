package slackfake

import (
	"bytes"
	"cmp"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"sync/atomic"
	"time"
)

// Sender speaks for Slack to an app: it builds the requests Slack sends to
// an app's request URL — slash commands, block_actions clicks and Events
// API callbacks — shaped as Slack shapes them, signs them with the signing
// secret, and posts them. The demo console and the end-to-end tests use it,
// so both exercise the app's real HTTP path.
type Sender struct {
	// URL is the app's request URL, such as http://127.0.0.1:3000/slack/events.
	URL string
	// Secret is the app's signing secret.
	Secret string
	// Slack, when set, is the Server the requests come from: it provides
	// the response_url of each request (so the app's follow-ups are
	// recorded there), trigger_ids and what the user sees. Without it the
	// response_url points nowhere useful.
	Slack Host
	// HTTPClient defaults to a client with a 10 s timeout.
	HTTPClient *http.Client
	// Now defaults to time.Now; it stamps X-Slack-Request-Timestamp.
	Now func() time.Time
	// TeamID defaults to "T0TEST".
	TeamID string

	seq atomic.Int64
}

// Host is the Server a [Sender] speaks for: a *Server, or a test's server
// built on one.
type Host interface{ fake() *Server }

func (s *Server) fake() *Server { return s }

// server is the Server s speaks for, or nil.
func (s *Sender) server() *Server {
	if s.Slack == nil {
		return nil
	}
	return s.Slack.fake()
}

// Response is the app's answer to one request.
type Response struct {
	Status int
	Body   []byte
	// ResponseURLID is the id of the response_url sent with the request
	// (see Server.ResponsePosts).
	ResponseURLID string
	// Request is the body that was sent, as Slack sent it.
	Request []byte
}

func (s *Sender) now() time.Time {
	if s.Now != nil {
		return s.Now()
	}
	return time.Now()
}

func (s *Sender) team() string {
	if s.TeamID != "" {
		return s.TeamID
	}
	return "T0TEST"
}

// Sign returns X-Slack-Signature for body at timestamp ts.
func Sign(secret string, ts int64, body []byte) string {
	mac := hmac.New(sha256.New, []byte(secret))
	fmt.Fprintf(mac, "v0:%d:", ts)
	mac.Write(body)
	return "v0=" + hex.EncodeToString(mac.Sum(nil))
}

// Post signs body and posts it with contentType, plus any extra headers.
func (s *Sender) Post(ctx context.Context, contentType string, body []byte, header http.Header) (*Response, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, s.URL, bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	ts := s.now().Unix()
	req.Header.Set("Content-Type", contentType)
	req.Header.Set("User-Agent", "Slackbot 1.0 (+https://api.slack.com/robots)")
	req.Header.Set("X-Slack-Request-Timestamp", strconv.FormatInt(ts, 10))
	req.Header.Set("X-Slack-Signature", Sign(s.Secret, ts, body))
	for k, vs := range header {
		req.Header[k] = vs
	}
	r, err := s.do(req)
	if r != nil {
		r.Request = body
	}
	return r, err
}

func (s *Sender) do(req *http.Request) (*Response, error) {
	hc := s.HTTPClient
	if hc == nil {
		hc = &http.Client{Timeout: 10 * time.Second}
	}
	resp, err := hc.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, 4<<20))
	if err != nil {
		return nil, err
	}
	return &Response{Status: resp.StatusCode, Body: b}, nil
}

func (s *Sender) responseURL() (id, u string) {
	n := s.seq.Add(1)
	id = fmt.Sprintf("r%d", n)
	if s.server() != nil {
		return id, s.server().ResponseURL(id)
	}
	return id, "http://127.0.0.1:1/response/" + id
}

// Command is a slash command as a user types it.
type Command struct {
	User        User
	ChannelID   string // default "C0GENERAL"
	ChannelName string // default "general"
	Command     string // such as "/actions"
	// Text is what the user typed after the command, such as
	// "@bob overdue" or "Audit & Risk". It is sent as Slack sends it for a
	// command with should_escape set (see EscapeCommandText), unless
	// Escaped says it already is.
	Text    string
	Escaped bool
}

// CommandForm returns the form body Slack posts for c, with the given
// response_url.
func (s *Sender) CommandForm(c Command, responseURL string) url.Values {
	if c.ChannelID == "" {
		c.ChannelID, c.ChannelName = "C0GENERAL", "general"
	}
	if c.ChannelName == "" {
		c.ChannelName = channelName(c.ChannelID)
	}
	n := s.seq.Add(1)
	text := c.Text
	if !c.Escaped {
		var users []User
		if s.server() != nil {
			users = s.server().users()
		}
		text = EscapeCommandText(c.Text, users)
	}
	return url.Values{
		"token":                 {"verification-token-unused"},
		"team_id":               {s.team()},
		"team_domain":           {"demo"},
		"channel_id":            {c.ChannelID},
		"channel_name":          {c.ChannelName},
		"user_id":               {c.User.ID},
		"user_name":             {c.User.Name},
		"command":               {c.Command},
		"text":                  {text},
		"api_app_id":            {"A0RECORDS"},
		"is_enterprise_install": {"false"},
		"response_url":          {responseURL},
		"trigger_id":            {s.trigger(c.User.ID, n)},
	}
}

// trigger is the trigger_id of a request of user's: one the Slack server
// handed out when the Sender has one (views.open takes no other), else one
// of Slack's shape.
func (s *Sender) trigger(user string, n int64) string {
	if s.server() != nil {
		return s.server().NewTrigger(user)
	}
	return fmt.Sprintf("%d.%d.%x", n, s.now().Unix(), n*7919)
}

// SlashCommand sends c as Slack does: a signed form POST. When the Sender
// has a Slack, what the ack shows is put on the user's screen there (see
// [Server.Screen]), and so are the posts to the command's response_url.
func (s *Sender) SlashCommand(ctx context.Context, c Command) (*Response, error) {
	id, u := s.responseURL()
	form := s.CommandForm(c, u)
	if s.server() != nil {
		s.server().registerResponseURL(id, responseContext{user: c.User.ID, channel: form.Get("channel_id")})
	}
	body := []byte(form.Encode())
	r, err := s.Post(ctx, "application/x-www-form-urlencoded", body, nil)
	if r != nil {
		r.ResponseURLID = id
		if s.server() != nil && r.Status == http.StatusOK {
			s.server().recordAck(c.User.ID, form.Get("channel_id"), r.Body)
		}
	}
	return r, err
}

// Click is a press on an interactive element of a message or view.
type Click struct {
	User      User
	ChannelID string // the message's channel; default "C0GENERAL"
	// Ephemeral is true for a message only the user sees (a slash-command
	// reply). Slack then leaves the message itself out of the payload.
	Ephemeral bool
	// MessageTS and MessageBlocks identify a (non-ephemeral) message and
	// its blocks, sent back as "message".
	MessageTS     string
	MessageBlocks json.RawMessage
	// MessageText is the message's text, sent back with its blocks as
	// Slack does.
	MessageText string
	// View, when set, is the Home view the element is on (container type
	// "view"); the payload then has no response_url.
	View json.RawMessage
	// BlockID and Element are the block and the element as they appear in
	// the message (the element's JSON, such as a button).
	BlockID string
	Element json.RawMessage
	// ChannelName is the channel's name as the payload carries it; by
	// default "directmessage" for a D… channel and "general" otherwise.
	ChannelName string
	// Option is the value of the chosen option, for an overflow menu.
	Option string
	// Date is the day picked in a datepicker, YYYY-MM-DD. Slack sends it
	// as the action's selected_date, and the element's initial_date with
	// it (https://docs.slack.dev/reference/block-kit/block-elements/date-picker-element;
	// bolt-js DatepickerAction: selected_date, initial_date). The date is
	// the person's calendar date as they picked it, no zone attached: the
	// bot reads it in their own zone. A date that is not YYYY-MM-DD cannot
	// be picked, so it is refused here.
	Date string
	// Selected are the values of the boxes ticked after the click, for a
	// checkbox group: Slack sends every box then ticked, as
	// selected_options, not the one clicked
	// (https://docs.slack.dev/reference/block-kit/block-elements/checkboxes-element;
	// bolt-js CheckboxesAction).
	Selected []string
}

// BlockActions returns the block_actions payload JSON Slack sends for c.
func (s *Sender) BlockActions(c Click, responseURL string) ([]byte, error) {
	var el clickedElement
	if err := json.Unmarshal(c.Element, &el); err != nil {
		return nil, fmt.Errorf("element: %w", err)
	}
	if c.ChannelID == "" {
		c.ChannelID = "C0GENERAL"
	}
	ts := fmt.Sprintf("%d.%06d", s.now().Unix(), s.seq.Add(1))
	action, err := el.action(c, ts)
	if err != nil {
		return nil, err
	}
	p := map[string]any{
		"type":                  "block_actions",
		"user":                  map[string]any{"id": c.User.ID, "username": c.User.Name, "name": c.User.Name, "team_id": s.team()},
		"api_app_id":            "A0RECORDS",
		"token":                 "verification-token-unused",
		"trigger_id":            s.trigger(c.User.ID, s.seq.Add(1)),
		"team":                  map[string]any{"id": s.team(), "domain": "demo"},
		"enterprise":            nil,
		"is_enterprise_install": false,
		"state":                 map[string]any{"values": map[string]any{}},
		"actions":               []any{action},
	}
	if c.View != nil {
		var v struct {
			ID string `json:"id"`
		}
		_ = json.Unmarshal(c.View, &v)
		p["container"] = map[string]any{"type": "view", "view_id": v.ID}
		p["view"] = c.View
		return json.Marshal(p)
	}
	p["response_url"] = responseURL
	p["channel"] = map[string]any{"id": c.ChannelID, "name": cmp.Or(c.ChannelName, channelName(c.ChannelID))}
	msgTS := c.MessageTS
	if msgTS == "" {
		msgTS = ts
	}
	p["container"] = map[string]any{"type": "message", "message_ts": msgTS, "channel_id": c.ChannelID, "is_ephemeral": c.Ephemeral}
	if !c.Ephemeral {
		p["message"] = map[string]any{"type": "message", "subtype": "bot_message", "text": c.MessageText, "ts": msgTS, "blocks": c.MessageBlocks}
	}
	return json.Marshal(p)
}

// clickedElement is what a click's payload echoes of the Block Kit element
// clicked.
type clickedElement struct {
	Type        string          `json:"type"`
	ActionID    string          `json:"action_id"`
	Text        json.RawMessage `json:"text"`
	Value       string          `json:"value"`
	Style       string          `json:"style"`
	URL         string          `json:"url"`
	Options     []elementOption `json:"options"`
	InitialDate string          `json:"initial_date"`
}

type elementOption struct {
	Text  json.RawMessage `json:"text"`
	Value string          `json:"value"`
}

// action is the payload's actions[] entry for c, a click on el at ts: what
// was chosen for a menu, a date picker or a checkbox group, the button's
// own fields otherwise.
func (el clickedElement) action(c Click, ts string) (map[string]any, error) {
	action := map[string]any{
		"type":      el.Type,
		"action_id": el.ActionID,
		"block_id":  c.BlockID,
		"action_ts": ts,
	}
	switch el.Type {
	case "overflow", "static_select":
		opt, ok := el.option(c.Option)
		if !ok {
			return nil, fmt.Errorf("option %q is not in the menu", c.Option)
		}
		action["selected_option"] = opt
	case "datepicker":
		if _, err := time.Parse(time.DateOnly, c.Date); err != nil {
			return nil, fmt.Errorf("date %q is not a day the picker offers (YYYY-MM-DD)", c.Date)
		}
		action["selected_date"] = c.Date
		if el.InitialDate != "" {
			action["initial_date"] = el.InitialDate
		}
	case "checkboxes":
		selected := []any{}
		for _, v := range c.Selected {
			opt, ok := el.option(v)
			if !ok {
				return nil, fmt.Errorf("box %q is not in the checkbox group", v)
			}
			selected = append(selected, opt)
		}
		action["selected_options"] = selected
	default:
		action["text"] = el.Text
		if el.Value != "" {
			action["value"] = el.Value
		}
		if el.Style != "" {
			action["style"] = el.Style
		}
		if el.URL != "" {
			action["url"] = el.URL
		}
	}
	return action, nil
}

// option is el's option with value as a payload carries it; ok is false
// when el offers none. Values are unique within an element ("A unique
// string value", https://docs.slack.dev/reference/block-kit/composition-objects/option-object).
func (el clickedElement) option(value string) (map[string]any, bool) {
	for _, o := range el.Options {
		if o.Value == value {
			return map[string]any{"text": o.Text, "value": o.Value}, true
		}
	}
	return nil, false
}

// Click sends c as Slack does: a signed form POST with payload=JSON. A
// click on an ephemeral message without a MessageTS is taken to be on the
// newest message of the user's screen that holds c.BlockID (see
// [Server.Screen]); posts to the click's response_url then act on that
// message.
func (s *Sender) Click(ctx context.Context, c Click) (*Response, error) {
	id, u := s.responseURL()
	if c.ChannelID == "" {
		c.ChannelID = "C0GENERAL"
	}
	if s.server() != nil && c.View == nil {
		if c.Ephemeral && c.MessageTS == "" {
			c.MessageTS = s.server().ephemeralWith(c.User.ID, c.ChannelID, c.BlockID)
		}
		s.server().registerResponseURL(id, responseContext{
			user: c.User.ID, channel: c.ChannelID, interactive: true,
			messageID: c.MessageTS, ephemeral: c.Ephemeral,
		})
	}
	if s.server() != nil && c.View != nil {
		// Slack sends the view the user clicked on as it holds it, with
		// its id and the hash of that version (bolt-js types it as
		// ViewOutput, with id and hash: slackapi/bolt-js#437), the hash
		// views.publish takes back to refuse a stale update.
		if served, ok := s.server().servedView(c.User.ID, c.View); ok {
			c.View = served
		}
	}
	payload, err := s.BlockActions(c, u)
	if err != nil {
		return nil, err
	}
	body := []byte(url.Values{"payload": {string(payload)}}.Encode())
	r, err := s.Post(ctx, "application/x-www-form-urlencoded", body, nil)
	if r != nil {
		r.ResponseURLID = id
	}
	return r, err
}

// Event sends an Events API callback wrapping inner (the "event" object),
// as Slack does: signed JSON. retry > 0 adds X-Slack-Retry-Num and
// X-Slack-Retry-Reason, as on a redelivery, with the same eventID.
func (s *Sender) Event(ctx context.Context, eventID string, inner any, retry int) (*Response, error) {
	body, err := json.Marshal(map[string]any{
		"token":          "verification-token-unused",
		"team_id":        s.team(),
		"api_app_id":     "A0RECORDS",
		"event":          inner,
		"type":           "event_callback",
		"event_id":       eventID,
		"event_time":     s.now().Unix(),
		"authorizations": []any{map[string]any{"team_id": s.team(), "user_id": "U0BOT", "is_bot": true}},
	})
	if err != nil {
		return nil, err
	}
	var h http.Header
	if retry > 0 {
		h = http.Header{"X-Slack-Retry-Num": {strconv.Itoa(retry)}, "X-Slack-Retry-Reason": {"http_timeout"}}
	}
	return s.Post(ctx, "application/json", body, h)
}
