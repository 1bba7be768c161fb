package slackfake

import (
	"context"
	"encoding/json"
	"errors"
	"net/url"
	"time"
)

// Submission is a press on a modal's submit button.
type Submission struct {
	User User
	// ViewID is the open modal's ID (see [Server.Modal]).
	ViewID string
	// Typed is what the user typed before submitting, block_id →
	// action_id → text, into the modal's inputs; inputs left out keep what
	// they hold.
	Typed map[string]map[string]string
}

// SubmitResult is the app's answer to a view_submission, and what Slack
// made of it.
type SubmitResult struct {
	*Response
	Answer SubmissionAnswer
	// Modal is the modal as the user sees it after the answer.
	Modal Modal
}

// Submit sends sub as Slack does when the user presses a modal's submit
// button: a signed form POST whose payload is [Sender.ViewSubmission]'s.
// The app's answer is then applied to the modal as Slack applies it (see
// [SubmissionAnswer]). It needs the Sender's Slack.
func (s *Sender) Submit(ctx context.Context, sub Submission) (*SubmitResult, error) {
	payload, err := s.ViewSubmission(sub)
	if err != nil {
		return nil, err
	}
	srv := s.server()
	start := time.Now()
	r, err := s.Post(ctx, "application/x-www-form-urlencoded", []byte(url.Values{"payload": {string(payload)}}.Encode()), nil)
	if err != nil {
		return nil, err
	}
	took := time.Since(start)
	srv.mu.Lock()
	answer := srv.ws.applySubmissionAnswerLocked(sub.ViewID, r.Status, r.Body, took)
	now := srv.ws.modals[sub.ViewID].public()
	srv.signalLocked()
	srv.mu.Unlock()
	return &SubmitResult{Response: r, Answer: answer, Modal: now}, nil
}

// ViewSubmission puts what sub typed into the user's open modal and
// returns the view_submission payload Slack sends when they press its
// submit button: the user, the team, a fresh trigger_id and the view as
// Slack holds it (id, hash, callback_id, private_metadata, and
// state.values[block_id][action_id] with what was typed)
// (https://docs.slack.dev/reference/interaction-payloads/view-interactions-payload).
// It needs the Sender's Slack.
func (s *Sender) ViewSubmission(sub Submission) ([]byte, error) {
	if s.server() == nil {
		return nil, errors.New("slackfake: a view_submission needs the Sender's Slack")
	}
	srv := s.server()
	srv.mu.Lock()
	m, err := srv.ws.typeIntoLocked(sub.ViewID, sub.User.ID, sub.Typed)
	var served json.RawMessage
	trigger := ""
	if err == nil {
		served, trigger = m.served, srv.ws.newTriggerLocked(sub.User.ID)
		srv.signalLocked()
	}
	srv.mu.Unlock()
	if err != nil {
		return nil, err
	}
	return json.Marshal(map[string]any{
		"type":                  "view_submission",
		"team":                  map[string]any{"id": s.team(), "domain": "demo"},
		"user":                  map[string]any{"id": sub.User.ID, "username": sub.User.Name, "name": sub.User.Name, "team_id": s.team()},
		"api_app_id":            "A0RECORDS",
		"token":                 "verification-token-unused",
		"trigger_id":            trigger,
		"view":                  served,
		"response_urls":         []any{},
		"is_enterprise_install": false,
		"enterprise":            nil,
	})
}
