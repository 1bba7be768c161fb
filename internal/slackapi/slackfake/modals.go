package slackfake

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"net/url"
	"time"
	"unicode/utf8"
)

// Triggers and modals, as Slack has them.
//
// A trigger_id comes with every interaction (a click, a slash command, a
// view submission) and is what views.open exchanges for a modal. "Triggers
// expire in three seconds. Use it before you lose it." and "Triggers may
// only be used once." (https://api.slack.com/docs/triggers). views.open
// answers expired_trigger_id for an expired one, exchanged_trigger_id for
// one already used and invalid_trigger_id for one it never handed out (the
// method's errors: https://api.slack.com/methods/views.open).
const triggerLife = 3 * time.Second

// trigger is a trigger_id the Server handed out.
type trigger struct {
	user   string
	issued time.Time
	used   bool
	// entity is the external_ref.id of the Work Object whose click
	// handed the trigger out; "" for any other trigger.
	entity string
}

// modal is one open (or closed) modal: its current version.
type modal struct {
	id   string
	user string
	// view is the view as the app sent it; served is what Slack answers and
	// sends back in payloads (with id, hash, state...).
	view, served json.RawMessage
	hash         string
	// values is what the user has typed: block_id → action_id → value.
	values map[string]map[string]string
	// errors are the errors a response_action "errors" put under inputs.
	errors map[string]string
	open   bool
}

// Modal is a modal as the user sees it now.
type Modal struct {
	ID   string
	User string
	Hash string
	// View is the view as the app last sent it (views.open, views.update
	// or a view_submission's response_action "update").
	View json.RawMessage
	// Served is the view as Slack serves it back in payloads: View plus
	// id, hash, state (what the user typed) and the rest.
	Served json.RawMessage
	// Errors are the errors shown under inputs, by block_id, after a
	// response_action "errors"; nil when none.
	Errors map[string]string
	// Open is false once a submission closed the modal.
	Open bool
}

// NewTrigger hands out a trigger_id for an interaction of userID's, as
// Slack puts in every interaction payload; it expires three seconds later
// by the Server's clock. The [Sender] uses it for every request it sends.
func (s *Server) NewTrigger(userID string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.ws.newTriggerLocked(userID)
}

func (ws *workspace) newTriggerLocked(userID string) string {
	ws.seq++
	// Slack's shape: "12345.98765.abcd2358fdea".
	id := fmt.Sprintf("%d.%d.%08x", ws.seq, ws.now().Unix(), ws.seq*7919)
	if ws.triggers == nil {
		ws.triggers = make(map[string]*trigger)
	}
	ws.triggers[id] = &trigger{user: userID, issued: ws.now()}
	return id
}

// viewsOpen answers views.open: it exchanges "trigger_id" for a modal
// showing "view" to the trigger's user, and answers the view as served.
func viewsOpen(ws *workspace, p url.Values) (reply, error) {
	t, ok := ws.triggers[p.Get("trigger_id")]
	switch {
	case !ok:
		return nil, slackError("invalid_trigger_id")
	case t.used:
		return nil, slackError("exchanged_trigger_id")
	case ws.now().Sub(t.issued) > triggerLife:
		return nil, slackError("expired_trigger_id")
	}
	raw := []byte(p.Get("view"))
	if err := checkModal(raw); err != nil {
		return nil, err
	}
	t.used = true
	ws.seq++
	m := &modal{id: fmt.Sprintf("V%08d", ws.seq), user: t.user, open: true}
	if ws.modals == nil {
		ws.modals = make(map[string]*modal)
	}
	ws.modals[m.id] = m
	if err := ws.showModalLocked(m, raw); err != nil {
		return nil, err
	}
	return reply{"view": m.served}, nil
}

// viewsUpdate answers views.update: "view_id" names an open modal (an
// external_id is not modelled: not_found), whose view becomes "view". A
// "hash" other than the modal's current one is hash_conflict: "Error
// returned when the provided hash doesn't match the current stored value";
// the hash is "A string that represents view state to protect against
// possible race conditions" (https://api.slack.com/methods/views.update).
// Inputs keeping their block_id and action_id keep what was typed in them
// ("Preserving input entry", https://docs.slack.dev/reference/views/modal-views).
func viewsUpdate(ws *workspace, p url.Values) (reply, error) {
	m, ok := ws.modals[p.Get("view_id")]
	if !ok || !m.open {
		return nil, slackError("not_found")
	}
	if hash := p.Get("hash"); hash != "" && hash != m.hash {
		return nil, slackError("hash_conflict")
	}
	raw := []byte(p.Get("view"))
	if err := checkModal(raw); err != nil {
		return nil, err
	}
	ws.revisedViewLocked("views.update of "+m.id, m.view, raw)
	if err := ws.showModalLocked(m, raw); err != nil {
		return nil, err
	}
	return reply{"view": m.served}, nil
}

// showModalLocked makes raw, a checked modal view, m's current version:
// a new hash, what was typed kept in the inputs that stay (else their
// initial_value), errors cleared.
func (ws *workspace) showModalLocked(m *modal, raw json.RawMessage) error {
	inputs := inputsOf(raw)
	values := make(map[string]map[string]string)
	for _, in := range inputs {
		v, typed := m.values[in.blockID][in.actionID]
		if !typed {
			v = in.initial
		}
		if values[in.blockID] == nil {
			values[in.blockID] = make(map[string]string)
		}
		values[in.blockID][in.actionID] = v
	}
	ws.seq++
	m.view, m.values, m.errors = bytes.Clone(raw), values, nil
	m.hash = fmt.Sprintf("%d.%08x", ws.now().Unix(), ws.seq)
	return ws.serveModalLocked(m)
}

// serveModalLocked writes m.served from m.view, its hash and its values.
func (ws *workspace) serveModalLocked(m *modal) error {
	var view map[string]json.RawMessage
	if err := json.Unmarshal(m.view, &view); err != nil {
		return slackError("invalid_arguments")
	}
	served := maps.Clone(view)
	state := map[string]map[string]any{}
	for _, in := range inputsOf(m.view) {
		if state[in.blockID] == nil {
			state[in.blockID] = map[string]any{}
		}
		// A plain_text_input's state is its type and value; value is
		// absent (null in bolt's types) while the input is empty.
		el := map[string]any{"type": in.elType}
		if v := m.values[in.blockID][in.actionID]; v != "" {
			el["value"] = v
		}
		state[in.blockID][in.actionID] = el
	}
	stateJSON, err := json.Marshal(map[string]any{"values": state})
	if err != nil {
		return err
	}
	served["state"] = stateJSON
	for key, value := range map[string]string{
		"id": m.id, "root_view_id": m.id, "team_id": TeamID, "app_id": AppID,
		"app_installed_team_id": TeamID, "bot_id": BotID, "hash": m.hash,
	} {
		served[key] = jsonString(value)
	}
	served["previous_view_id"] = json.RawMessage("null")
	b, err := json.Marshal(served)
	if err != nil {
		return err
	}
	m.served = b
	return nil
}

// input is an input block's element.
type input struct {
	blockID, actionID, elType, initial string
}

func inputsOf(view json.RawMessage) []input {
	var v struct {
		Blocks []struct {
			Type    string `json:"type"`
			BlockID string `json:"block_id"`
			Element struct {
				Type         string `json:"type"`
				ActionID     string `json:"action_id"`
				InitialValue string `json:"initial_value"`
			} `json:"element"`
		} `json:"blocks"`
	}
	if json.Unmarshal(view, &v) != nil {
		return nil
	}
	var out []input
	for _, b := range v.Blocks {
		if b.Type == "input" {
			out = append(out, input{blockID: b.BlockID, actionID: b.Element.ActionID, elType: b.Element.Type, initial: b.Element.InitialValue})
		}
	}
	return out
}

// checkModal refuses, with invalid_arguments as Slack does, a view that
// is not a modal as the modal view reference defines one
// (https://docs.slack.dev/reference/views/modal-views): type "modal"; a
// plain_text title of at most 24 characters; submit and close, when
// present, plain_text of at most 24 ("submit is required when an input
// block is within the blocks array"); at most 100 blocks; private_metadata
// at most 3000 characters and callback_id at most 255. Block IDs must be
// unique within the view (Block Kit's block_id: "Maximum length for this
// field is 255 characters. block_id should be unique for each message or
// view", https://docs.slack.dev/reference/block-kit/blocks), and the blocks
// must be ones apps may write.
func checkModal(raw []byte) error {
	var v struct {
		Type            string          `json:"type"`
		Title           *textObject     `json:"title"`
		Submit          *textObject     `json:"submit"`
		Close           *textObject     `json:"close"`
		Blocks          json.RawMessage `json:"blocks"`
		PrivateMetadata string          `json:"private_metadata"`
		CallbackID      string          `json:"callback_id"`
	}
	if err := json.Unmarshal(raw, &v); err != nil || v.Type != "modal" {
		return slackError("invalid_arguments")
	}
	// A title always; a close button's text when given; a submit
	// button's when given, and it must be where the modal has inputs.
	switch {
	case !v.Title.valid(),
		v.Close != nil && !v.Close.valid(),
		v.Submit != nil && !v.Submit.valid(),
		v.Submit == nil && len(inputsOf(raw)) > 0:
		return slackError("invalid_arguments")
	}
	if utf8.RuneCountInString(v.PrivateMetadata) > 3000 || utf8.RuneCountInString(v.CallbackID) > 255 {
		return slackError("invalid_arguments")
	}
	var list []json.RawMessage
	if err := json.Unmarshal(v.Blocks, &list); err != nil || len(list) > 100 {
		return slackError("invalid_arguments")
	}
	if err := writableBlocks(v.Blocks); err != nil {
		return err
	}
	seen := make(map[string]bool)
	for _, id := range blockIDs(v.Blocks) {
		if seen[id] || utf8.RuneCountInString(id) > 255 {
			return slackError("invalid_arguments")
		}
		seen[id] = true
	}
	return nil
}

// textObject is a view's title, submit or close.
type textObject struct {
	Type string `json:"type"`
	Text string `json:"text"`
}

// valid reports whether t is a plain_text of 1 to 24 characters (nil is
// not).
func (t *textObject) valid() bool {
	if t == nil {
		return false
	}
	n := utf8.RuneCountInString(t.Text)
	return t.Type == "plain_text" && n > 0 && n <= 24
}

// revisedViewLocked is revisedLocked for a new version of a modal: its
// input blocks keep their block_id, which is how Slack keeps what was
// typed in them ("Preserving input entry",
// https://docs.slack.dev/reference/views/modal-views).
func (ws *workspace) revisedViewLocked(where string, before, after json.RawMessage) {
	if ws.revised == nil {
		return
	}
	var b, a struct {
		Blocks json.RawMessage `json:"blocks"`
	}
	_ = json.Unmarshal(before, &b)
	_ = json.Unmarshal(after, &a)
	var kept []string
	for _, in := range inputsOf(after) {
		kept = append(kept, in.blockID)
	}
	ws.revisedLocked(where, b.Blocks, a.Blocks, kept)
}

// Modal returns the modal with viewID as its user sees it now, and false
// when Slack never opened one with that ID.
func (s *Server) Modal(viewID string) (Modal, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	m, ok := s.ws.modals[viewID]
	if !ok {
		return Modal{}, false
	}
	return m.public(), true
}

// Modals returns the modals opened for userID, or for anyone when userID
// is "", in the order they were opened.
func (s *Server) Modals(userID string) []Modal {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []Modal
	for _, m := range s.ws.modals {
		if userID == "" || m.user == userID {
			out = append(out, m.public())
		}
	}
	// View IDs are numbered in the order the modals were opened.
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && out[j].ID < out[j-1].ID; j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	return out
}

func (m *modal) public() Modal {
	return Modal{ID: m.id, User: m.user, Hash: m.hash, View: bytes.Clone(m.view), Served: bytes.Clone(m.served), Errors: maps.Clone(m.errors), Open: m.open}
}

// typeIntoLocked puts what userID typed into the inputs of their open
// modal viewID, as block_id → action_id → text, and returns the modal.
func (ws *workspace) typeIntoLocked(viewID, userID string, typed map[string]map[string]string) (*modal, error) {
	m, ok := ws.modals[viewID]
	if !ok || !m.open || m.user != userID {
		return nil, fmt.Errorf("slackfake: %s has no open modal %s", userID, viewID)
	}
	for blockID, actions := range typed {
		for actionID, text := range actions {
			if _, ok := m.values[blockID][actionID]; !ok {
				return nil, fmt.Errorf("slackfake: modal %s has no input %s/%s", viewID, blockID, actionID)
			}
			m.values[blockID][actionID] = text
		}
	}
	if err := ws.serveModalLocked(m); err != nil {
		return nil, err
	}
	return m, nil
}

// SubmissionAnswer is what Slack made of an app's answer to a
// view_submission (https://docs.slack.dev/surfaces/modals#interactions).
type SubmissionAnswer struct {
	// ResponseAction is the answer's response_action: "update", "errors",
	// "push", "clear", or "" for an empty 200 (which closes the modal).
	ResponseAction string
	// Errors are the errors an "errors" answer put under inputs.
	Errors map[string]string
	// Refused says why Slack would not show the answer (the user sees
	// Slack's own error in the modal), "" when it did: "slow" past three
	// seconds, "status" for a non-200, "invalid_arguments" for a view that
	// is not a valid modal, "errors_not_inputs" for errors keyed by
	// anything but an input block's block_id.
	Refused string
}

// applySubmissionAnswerLocked does to modal viewID what Slack does with
// the app's answer to its submission. An app has three seconds to answer
// ("your app must respond within 3 seconds", https://api.slack.com/interactivity/handling#acknowledgment_response),
// else the user sees an error and the answer is dropped.
func (ws *workspace) applySubmissionAnswerLocked(viewID string, status int, body []byte, took time.Duration) SubmissionAnswer {
	m := ws.modals[viewID]
	var a SubmissionAnswer
	switch {
	case took > triggerLife:
		a.Refused = "slow"
		return a
	case status != 200:
		a.Refused = "status"
		return a
	case len(bytes.TrimSpace(body)) == 0:
		m.open = false
		return a
	}
	var ans struct {
		ResponseAction string            `json:"response_action"`
		View           json.RawMessage   `json:"view"`
		Errors         map[string]string `json:"errors"`
	}
	if err := json.Unmarshal(body, &ans); err != nil {
		a.Refused = "invalid_json"
		return a
	}
	a.ResponseAction = ans.ResponseAction
	switch ans.ResponseAction {
	case "update":
		if err := checkModal(ans.View); err != nil {
			a.Refused = err.Error()
			return a
		}
		ws.revisedViewLocked("view_submission update of "+m.id, m.view, ans.View)
		if err := ws.showModalLocked(m, ans.View); err != nil {
			a.Refused = err.Error()
		}
	case "errors":
		inputs := make(map[string]bool)
		for _, in := range inputsOf(m.view) {
			inputs[in.blockID] = true
		}
		for blockID := range ans.Errors {
			if !inputs[blockID] {
				a.Refused = "errors_not_inputs"
				return a
			}
		}
		m.errors, a.Errors = maps.Clone(ans.Errors), maps.Clone(ans.Errors)
	case "clear", "":
		m.open = false
	default:
		a.Refused = "unsupported_response_action"
	}
	return a
}
