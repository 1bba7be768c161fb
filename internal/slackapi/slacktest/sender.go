package slacktest

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync/atomic"
	"time"
)

// What tests send as Slack beyond what the demo console sends (slackfake's
// [Sender]): the checks Slack makes of a request URL, Socket Mode's slash
// command payloads, and the clicks on a Work Object card and in its
// flexpane. Each is built on the Sender's exported fields and Post, as
// Slack shapes the request.

// sent numbers what this package sends, for challenges and action_ts
// that differ from one request to the next.
var sent atomic.Int64

// SSLCheck sends what Slack sends to check a command's request URL
// certificate: an unsigned form with ssl_check=1 and a token, and no
// X-Slack-Signature or X-Slack-Request-Timestamp header
// (slackapi/bolt-js#1397 shows the request as Slack sends it). extra
// fields are added to the form, to send what an attacker might.
func SSLCheck(ctx context.Context, s *Sender, extra url.Values) (*Response, error) {
	form := url.Values{"ssl_check": {"1"}, "token": {"verification-token-unused"}}
	for k, vs := range extra {
		form[k] = vs
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, s.URL, strings.NewReader(form.Encode()))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("User-Agent", "Slackbot 1.0 (+https://api.slack.com/robots)")
	resp, err := cmp.Or(s.HTTPClient, &http.Client{Timeout: 10 * time.Second}).Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, 4<<20))
	return &Response{Status: resp.StatusCode, Body: body}, err
}

// VerifyRequestURL does what Slack does when an admin saves an Events API
// request URL (in a manifest, or under Event Subscriptions): it sends a
// signed url_verification with a fresh challenge and checks that the
// answer is 200 and carries the challenge, as plain text, a form or JSON
// (https://api.slack.com/events/url_verification). It returns nil when
// Slack would show the URL as verified, else an error worded as Slack's
// settings page words it.
func VerifyRequestURL(ctx context.Context, s *Sender) error {
	challenge := fmt.Sprintf("chal%dx%d", time.Now().UnixNano(), sent.Add(1))
	body, err := json.Marshal(map[string]string{
		"token": "verification-token-unused", "challenge": challenge, "type": "url_verification",
	})
	if err != nil {
		return err
	}
	r, err := s.Post(ctx, "application/json", body, nil)
	if err != nil {
		return fmt.Errorf("Your URL didn't respond with the value of the challenge parameter. (%v)", err)
	}
	if r.Status != http.StatusOK {
		return fmt.Errorf("Your URL didn't respond with the value of the challenge parameter. (HTTP %d)", r.Status)
	}
	got := strings.TrimSpace(string(r.Body))
	var j struct {
		Challenge string `json:"challenge"`
	}
	if json.Unmarshal(r.Body, &j) == nil && j.Challenge != "" {
		got = j.Challenge
	} else if f, err := url.ParseQuery(got); err == nil && f.Get("challenge") != "" {
		got = f.Get("challenge")
	}
	if got != challenge {
		return errors.New("Your URL didn't respond with the value of the challenge parameter.")
	}
	return nil
}

// CommandPayload returns the payload of a slash_commands envelope for c:
// the fields Slack would post as a form over HTTP, as a JSON object of
// strings, with the given response_url (see [Server.ResponseURLFor]).
func CommandPayload(s *Sender, c Command, responseURL string) json.RawMessage {
	form := s.CommandForm(c, responseURL)
	fields := make(map[string]string, len(form))
	for k := range form {
		fields[k] = form.Get(k)
	}
	b, err := json.Marshal(fields)
	if err != nil {
		panic(fmt.Sprintf("slacktest: encode command payload: %v", err)) // a map of strings always encodes
	}
	return b
}

// ResponseURLFor returns a fresh response_url id and its URL, such as
// ("s7", "http://127.0.0.1:PORT/response/s7"), for building envelope
// payloads by hand; posts to it are recorded under that id.
func (s *Server) ResponseURLFor() (id, u string) {
	id = fmt.Sprintf("s%d", sent.Add(1))
	return id, s.ResponseURL(id)
}

// OpenPanel sends the entity_details_requested event Slack sends when c.User
// clicks a Work Object card, with a trigger_id for entity.presentDetails,
// as https://docs.slack.dev/reference/events/entity_details_requested
// describes it (slack-go slackevents.EntityDetailsRequestedEvent).
func OpenPanel(ctx context.Context, s *Sender, eventID string, c EntityClick) (*Response, error) {
	var domain string
	if u, err := url.Parse(c.Link); err == nil {
		domain = u.Host
	}
	ev := map[string]any{
		"type":           "entity_details_requested",
		"user":           c.User.ID,
		"external_ref":   c.Entity.ExternalRef,
		"entity_url":     c.Entity.URL,
		"link":           map[string]string{"url": c.Link, "domain": domain},
		"app_unfurl_url": c.Link,
		"trigger_id":     entityTrigger(s, c),
		"user_locale":    cmp.Or(c.Locale, "en-US"),
		"channel":        cmp.Or(c.Channel, "C0GENERAL"),
		"message_ts":     cmp.Or(c.MessageTS, "1767225600.000100"),
		"event_ts":       actionTS(s),
	}
	return s.Event(ctx, eventID, ev, 0)
}

// PressPanelButton sends the block_actions Slack sends when c.User presses
// b in the flexpane of c.Entity: the button's action_id and value, who
// pressed it and a trigger_id that may present the flexpane again. Slack
// publishes no more of this payload than every block_actions carries,
// so it has no response_url, message or view: an app may rely on no more.
func PressPanelButton(ctx context.Context, s *Sender, c EntityClick, b EntityButton) (*Response, error) {
	team := cmp.Or(s.TeamID, "T0TEST")
	payload, err := json.Marshal(map[string]any{
		"type":       "block_actions",
		"user":       map[string]any{"id": c.User.ID, "username": c.User.Name, "name": c.User.Name, "team_id": team},
		"api_app_id": "A0RECORDS",
		"token":      "verification-token-unused",
		"trigger_id": entityTrigger(s, c),
		"team":       map[string]any{"id": team, "domain": "demo"},
		"actions": []any{map[string]any{
			"type": "button", "action_id": b.ActionID, "value": b.Value, "action_ts": actionTS(s),
		}},
	})
	if err != nil {
		return nil, err
	}
	return s.Post(ctx, "application/x-www-form-urlencoded", []byte(url.Values{"payload": {string(payload)}}.Encode()), nil)
}

// EntityClick is a person's click on a Work Object card, or on a button
// in its flexpane.
type EntityClick struct {
	User User
	// Link is the URL as posted (the card's app_unfurl_url); Entity the
	// card's entity as the app sent it (see [slackfake.Server.Card]).
	Link   string
	Entity Entity
	// Channel and MessageTS are where the card is; default C0GENERAL.
	Channel, MessageTS string
	// Locale is the user's Slack locale; default en-US.
	Locale string
}

// entityTrigger is the trigger_id of c: one the Slack server handed out
// for the card's entity when the Sender speaks for a Server, else one of
// Slack's shape.
func entityTrigger(s *Sender, c EntityClick) string {
	if srv, ok := s.Slack.(*Server); ok {
		return srv.EntityTrigger(c.User.ID, c.Entity.ExternalRef.ID)
	}
	n := sent.Add(1)
	return fmt.Sprintf("%d.%d.%x", n, time.Now().Unix(), n*7919)
}

// actionTS is an action_ts or event_ts: the Sender's clock, and a
// fraction that differs from one request to the next.
func actionTS(s *Sender) string {
	now := time.Now
	if s.Now != nil {
		now = s.Now
	}
	return fmt.Sprintf("%d.%06d", now().Unix(), sent.Add(1))
}
