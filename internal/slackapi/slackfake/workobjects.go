package slackfake

import (
	"bytes"
	"encoding/json"
	"net/url"
	"slices"
)

// Work Objects: a link an app unfurls with chat.unfurl's `metadata`
// (entities) is shown as Slack's own card of the entity's type; clicking
// the card opens the flexpane, which Slack asks the app to fill for that
// one viewer (the entity_details_requested event), and the app answers
// with entity.presentDetails: the entity as this viewer may see it, or an
// error saying why not.
//
//   - https://docs.slack.dev/messaging/work-objects-overview: the card "is
//     visible to everyone in the conversation"; the flexpane is per user.
//   - https://docs.slack.dev/messaging/work-objects-implementation: the
//     app's "Work Object Previews" setting (a toggle and the entity types
//     chosen; no manifest key) turns the cards on; chat.unfurl's
//     `metadata` is {"entities": [...]}, each with app_unfurl_url (the
//     URL as posted), url, external_ref, entity_type and entity_payload.
//   - https://docs.slack.dev/reference/methods/entity.presentDetails:
//     trigger_id required; `metadata` or `error`, whose status is one of
//     restricted, internal_error, not_found, custom, custom_partial_view,
//     timeout, edit_error; entity_metadata_does_not_match_trigger when
//     the entity is not the one clicked; action buttons need text and
//     action_id.
//   - The fields each entity type accepts: @slack/types
//     message-metadata.d.ts (TaskEntityFields, ContentItemEntityFields,
//     FileEntityFields, IncidentEntityFields); an item has none of its
//     own, only custom_fields.
//
// What the fake decides where Slack's docs say nothing: a card of a type
// the app has not turned on (or with previews off) shows nothing, so a
// workspace without previews sees only a classic unfurl sent beside it;
// a trigger is good once and for three seconds, as every other trigger.

// The entity types, @slack/types EntityType.
const (
	EntityTask        = "slack#/entities/task"
	EntityFile        = "slack#/entities/file"
	EntityItem        = "slack#/entities/item"
	EntityIncident    = "slack#/entities/incident"
	EntityContentItem = "slack#/entities/content_item"
)

// entityFields are the entity_payload.fields each type accepts.
var entityFields = map[string][]string{
	EntityTask:        {"description", "created_by", "date_created", "date_updated", "assignee", "status", "due_date", "priority"},
	EntityContentItem: {"preview", "description", "created_by", "date_created", "date_updated", "last_modified_by"},
	EntityFile:        {"preview", "created_by", "date_created", "date_updated", "last_modified_by", "file_size", "mime_type", "full_size_preview"},
	EntityIncident:    {"status", "priority", "urgency", "created_by", "assigned_to", "date_created", "date_updated", "description", "service"},
	EntityItem:        {},
}

// panelErrors are entity.presentDetails's error statuses.
var panelErrors = []string{"restricted", "internal_error", "not_found", "custom", "custom_partial_view", "timeout", "edit_error"}

// WithWorkObjects turns on the app's Work Object Previews for the given
// entity types (none: every type), as the app's settings page does.
// Without it, chat.unfurl still accepts `metadata` but no card shows.
func WithWorkObjects(types ...string) Option {
	return func(s *Server) { s.ws.workObjects = previewTypes(types) }
}

// SetWorkObjects turns the app's Work Object Previews on for types (none:
// every type), as WithWorkObjects does, on a running Server.
func (s *Server) SetWorkObjects(types ...string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.ws.workObjects = previewTypes(types)
}

func previewTypes(types []string) []string {
	if len(types) > 0 {
		return slices.Clone(types)
	}
	var all []string
	for t := range entityFields {
		all = append(all, t)
	}
	return all
}

// Entity is one Work Object entity as an app sent it.
type Entity struct {
	AppUnfurlURL string `json:"app_unfurl_url"`
	URL          string `json:"url"`
	ExternalRef  struct {
		ID   string `json:"id"`
		Type string `json:"type,omitempty"`
	} `json:"external_ref"`
	EntityType    string          `json:"entity_type"`
	EntityPayload json.RawMessage `json:"entity_payload"`
}

// entityPayload is what the fake reads of an entity_payload.
type entityPayload struct {
	Attributes struct {
		Title struct {
			Text string `json:"text"`
		} `json:"title"`
	} `json:"attributes"`
	Fields       map[string]json.RawMessage `json:"fields"`
	CustomFields []struct {
		Label string `json:"label"`
		Key   string `json:"key"`
		Type  string `json:"type"`
	} `json:"custom_fields"`
	Actions *struct {
		Primary  []EntityButton `json:"primary_actions"`
		Overflow []EntityButton `json:"overflow_actions"`
	} `json:"actions"`
}

// EntityButton is an action button of a Work Object (@slack/types
// EntityActionButton).
type EntityButton struct {
	Text     string `json:"text"`
	ActionID string `json:"action_id"`
	Value    string `json:"value,omitempty"`
	Style    string `json:"style,omitempty"`
	URL      string `json:"url,omitempty"`
}

// checkEntity reads one entity and holds it to the rules above;
// unfurl adds chat.unfurl's own (app_unfurl_url required).
func checkEntity(raw json.RawMessage, unfurl bool) (Entity, entityPayload, error) {
	var e Entity
	var p entityPayload
	if json.Unmarshal(raw, &e) != nil || json.Unmarshal(e.EntityPayload, &p) != nil {
		return e, p, slackError("invalid_metadata")
	}
	allowed, known := entityFields[e.EntityType]
	switch {
	case !known, e.URL == "", e.ExternalRef.ID == "", p.Attributes.Title.Text == "":
		return e, p, slackError("invalid_metadata")
	case unfurl && e.AppUnfurlURL == "":
		return e, p, slackError("invalid_metadata")
	}
	for k := range p.Fields {
		if !slices.Contains(allowed, k) {
			return e, p, slackError("invalid_metadata")
		}
	}
	for _, f := range p.CustomFields {
		if f.Label == "" || f.Key == "" || f.Type == "" {
			return e, p, slackError("invalid_metadata")
		}
	}
	if p.Actions != nil {
		for _, b := range slices.Concat(p.Actions.Primary, p.Actions.Overflow) {
			if b.Text == "" || b.ActionID == "" {
				return e, p, slackError("invalid_metadata")
			}
		}
	}
	return e, p, nil
}

// unfurlEntities reads chat.unfurl's `metadata`: {"entities": [...]}.
// Empty metadata is none.
func unfurlEntities(metadata string) ([]Entity, error) {
	if metadata == "" {
		return nil, nil
	}
	var m struct {
		Entities []json.RawMessage `json:"entities"`
	}
	if json.Unmarshal([]byte(metadata), &m) != nil || len(m.Entities) == 0 {
		return nil, slackError("invalid_metadata")
	}
	out := make([]Entity, 0, len(m.Entities))
	for _, raw := range m.Entities {
		e, _, err := checkEntity(raw, true)
		if err != nil {
			return nil, err
		}
		out = append(out, e)
	}
	return out, nil
}

// Card is what everyone in a conversation sees under a link the app
// unfurled: a Work Object card when the app sent an entity for the link
// and has previews on for its type, else the classic unfurl if one was
// sent, else nothing.
type Card struct {
	// Entity is the Work Object shown; nil for a classic unfurl.
	Entity *Entity
	// Title is the card's title (a Work Object's attributes.title.text).
	Title string
	// Fields are a Work Object's fields and custom_fields by key, as
	// sent.
	Fields map[string]json.RawMessage
	// Classic is the classic unfurl's attachment as sent; nil for a Work
	// Object.
	Classic json.RawMessage
}

// Card returns what people see under link in the latest chat.unfurl
// that unfurled it; ok is false when nothing shows.
func (s *Server) Card(link string) (c Card, ok bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for i := len(s.ws.unfurls) - 1; i >= 0; i-- {
		u := s.ws.unfurls[i]
		for _, e := range u.Entities {
			if e.AppUnfurlURL != link || !slices.Contains(s.ws.workObjects, e.EntityType) {
				continue
			}
			var p entityPayload
			_ = json.Unmarshal(e.EntityPayload, &p) // checked when sent
			return Card{Entity: &e, Title: p.Attributes.Title.Text, Fields: payloadFields(e.EntityPayload)}, true
		}
		var classic map[string]json.RawMessage
		if json.Unmarshal(u.Unfurls, &classic) == nil {
			if a, found := classic[link]; found {
				return Card{Classic: bytes.Clone(a)}, true
			}
		}
	}
	return Card{}, false
}

// payloadFields are the fields of payload, and its custom fields, by key.
func payloadFields(payload json.RawMessage) map[string]json.RawMessage {
	var p struct {
		Fields       map[string]json.RawMessage `json:"fields"`
		CustomFields []json.RawMessage          `json:"custom_fields"`
	}
	_ = json.Unmarshal(payload, &p) // checked when sent
	out := map[string]json.RawMessage{}
	for k, v := range p.Fields {
		out[k] = bytes.Clone(v)
	}
	for _, f := range p.CustomFields {
		var k struct {
			Key string `json:"key"`
		}
		_ = json.Unmarshal(f, &k)
		out[k.Key] = bytes.Clone(f)
	}
	return out
}

// Panel is the flexpane one user sees after clicking a card: the entity
// as the app presented it for them, or the error it gave.
type Panel struct {
	User string
	// Entity is the entity presented; nil with an error.
	Entity *Entity
	// Title is the entity's title; Fields its fields and custom fields
	// by key; Buttons its action buttons, primary then overflow.
	Title   string
	Fields  map[string]json.RawMessage
	Buttons []EntityButton
	// Error is the error's status ("restricted", "not_found"...) and
	// Message its custom_message; empty when the entity shows.
	Error, Message string
}

// Panel returns the flexpane user sees now; ok is false before the app
// has presented one for them.
func (s *Server) Panel(user string) (Panel, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	p, ok := s.ws.panels[user]
	return p, ok
}

// entityPresentDetails answers entity.presentDetails: it fills the
// flexpane of the user whose click handed out trigger_id, with the
// entity (which must be the one clicked) or the error.
func entityPresentDetails(ws *workspace, p url.Values) (reply, error) {
	t, ok := ws.triggers[p.Get("trigger_id")]
	switch {
	case !ok || t.entity == "":
		return nil, slackError("invalid_trigger_id")
	case t.used:
		return nil, slackError("invalid_trigger_id")
	case ws.now().Sub(t.issued) > triggerLife:
		return nil, slackError("invalid_trigger_id")
	}
	metadata, errArg := p.Get("metadata"), p.Get("error")
	if (metadata == "") == (errArg == "") {
		return nil, slackError("invalid_arguments")
	}
	panel := Panel{User: t.user}
	if errArg != "" {
		var e struct {
			Status        string `json:"status"`
			CustomMessage string `json:"custom_message"`
		}
		if json.Unmarshal([]byte(errArg), &e) != nil || !slices.Contains(panelErrors, e.Status) {
			return nil, slackError("invalid_arguments")
		}
		panel.Error, panel.Message = e.Status, e.CustomMessage
	} else {
		e, payload, err := checkEntity(json.RawMessage(metadata), false)
		if err != nil {
			return nil, err
		}
		if e.ExternalRef.ID != t.entity {
			return nil, slackError("entity_metadata_does_not_match_trigger")
		}
		panel.Entity, panel.Title, panel.Fields = &e, payload.Attributes.Title.Text, payloadFields(e.EntityPayload)
		if payload.Actions != nil {
			panel.Buttons = slices.Concat(payload.Actions.Primary, payload.Actions.Overflow)
		}
	}
	t.used = true
	if ws.panels == nil {
		ws.panels = map[string]Panel{}
	}
	ws.panels[t.user] = panel
	return reply{}, nil
}

// EntityTrigger hands out a trigger_id for user's click on the card of
// the entity whose external_ref.id is entity, or on a button of its
// flexpane: good for one entity.presentDetails of that entity.
func (s *Server) EntityTrigger(user, entity string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	id := s.ws.newTriggerLocked(user)
	s.ws.triggers[id].entity = entity
	return id
}
