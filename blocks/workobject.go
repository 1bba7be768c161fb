package blocks

import (
	"cmp"
	"time"

	"github.com/slack-go/slack"

	"github.com/recordsbot/recordsbot/internal/lang"
)

// Work Objects: minutes and actions as Slack's own cards, and the
// flexpane a click on one opens. The shapes are Slack's
// (https://docs.slack.dev/messaging/work-objects-implementation;
// @slack/types EntityMetadata, checked in CI by tools/slackcheck):
// chat.unfurl's metadata.entities for the card, which "is visible to
// everyone in the conversation"
// (https://docs.slack.dev/messaging/work-objects-overview), and
// entity.presentDetails's metadata for the flexpane, drawn for one
// viewer (https://docs.slack.dev/reference/methods/entity.presentDetails).
// What a card or panel may show is decided by the caller; these only draw.

// The entity types and external_ref types recordsbot sends. Minutes are a
// content item; an action is a task.
const (
	EntityMinutes = slack.EntityTypeContentItem
	EntityAction  = slack.EntityTypeTask
	// RefMinutes and RefAction are external_ref.type: Slack sends the
	// reference back with entity_details_requested, and the type says
	// which of the two the ID names.
	RefMinutes = "minutes"
	RefAction  = "action"
)

// The action IDs of the flexpane's buttons: ActionPanelStatusPrefix and
// the status each sets (one ID per button, as Block Kit wants of the
// elements of a block), and Snooze. Their values are those of the row's
// buttons: "<status>|<action id>|" for a status, the action's ID for
// Snooze.
const (
	ActionPanelStatusPrefix = "panel_status_"
	ActionPanelSnooze       = "panel_snooze"
)

// entityTitleMax bounds a card's title; Slack publishes no limit, and a
// title is a line.
const entityTitleMax = 200

// MinutesCard is the card of a meeting's minutes under Link (the URL as
// posted): what the public page shows of them (title, committee, date,
// draft or approved), nothing more, as everyone in the conversation
// sees it.
func MinutesCard(link string, v MinutesView) slack.WorkObjectEntity {
	return slack.WorkObjectEntity{
		AppUnfurlURL:  link,
		URL:           cmp.Or(v.URL, link),
		ExternalRef:   slack.WorkObjectExternalRef{ID: v.MeetingID, Type: RefMinutes},
		EntityType:    EntityMinutes,
		EntityPayload: minutesPayload(v),
	}
}

func minutesPayload(v MinutesView) map[string]any {
	l := v.Lang
	return map[string]any{
		"attributes":    attributes(l, cmp.Or(oneLine(v.Title), l.T("minutes.untitled")), "wo.minutes.kind"),
		"custom_fields": minutesFields(v),
	}
}

// minutesFields are the committee, the date and draft or approved.
func minutesFields(v MinutesView) []map[string]any {
	l := v.Lang
	var out []map[string]any
	if c := oneLine(v.Committee); c != "" {
		out = append(out, stringField("committee", l.T("minutes.field.committee"), truncate(c, entityTitleMax)))
	}
	if !v.Date.IsZero() {
		out = append(out, dateField("date", l.T("minutes.field.date"), v.Date))
	}
	status := l.T("minutes.approved")
	if v.Draft {
		status = l.T("wo.minutes.draft")
	}
	return append(out, stringField("status", l.T("minutes.field.status"), status))
}

// ActionCardView is what an action's card shows: its row's title,
// status, due date and assignee (the row's AssigneeSlackID names them as
// a Slack user when known, its Assignee otherwise).
type ActionCardView struct {
	Lang lang.Lang
	// Link is the URL as posted; Row.Link the action's own link.
	Link string
	// Row is the action as everyone in the conversation sees it: RowOf
	// with actions.ChannelView.
	Row ActionRow
}

// ActionCard is the task card of an action, as Share in channel would
// show it; the caller decides that the person who pasted the link may
// see it.
func ActionCard(v ActionCardView) slack.WorkObjectEntity {
	return slack.WorkObjectEntity{
		AppUnfurlURL:  v.Link,
		URL:           cmp.Or(v.Row.Link, v.Link),
		ExternalRef:   slack.WorkObjectExternalRef{ID: v.Row.ID, Type: RefAction},
		EntityType:    EntityAction,
		EntityPayload: actionPayload(v.Lang, v.Row),
	}
}

// ActionStub is the card of an action for a link pasted by someone who
// may not see it: "an action in recordsbot", and nothing of the action.
// A click still opens the flexpane, drawn for whoever clicks.
func ActionStub(l lang.Lang, link, url, id string) slack.WorkObjectEntity {
	return slack.WorkObjectEntity{
		AppUnfurlURL:  link,
		URL:           cmp.Or(url, link),
		ExternalRef:   slack.WorkObjectExternalRef{ID: id, Type: RefAction},
		EntityType:    EntityAction,
		EntityPayload: map[string]any{"attributes": attributes(l, l.T("wo.action.stub"), "wo.action.kind")},
	}
}

// actionPayload is a card's fields for r in l: the same facts as its row
// (rowStatus, rowText, plainTitle), as Slack's typed fields.
func actionPayload(l lang.Lang, r ActionRow) map[string]any {
	fields := map[string]any{
		"status": map[string]any{"value": rowStatus(l, r.Status, formPlain)},
	}
	if !r.Deadline.IsZero() {
		fields["due_date"] = map[string]any{"type": "slack#/types/date", "value": r.Deadline.Format(time.DateOnly)}
	}
	switch a := rowText(r.Assignee, 0, formPlain); {
	case a == "":
	case r.AssigneeSlackID != "":
		fields["assignee"] = map[string]any{"type": "slack#/types/user", "user": map[string]any{"user_id": r.AssigneeSlackID}}
	default:
		fields["assignee"] = map[string]any{"type": "string", "value": truncate(a, entityTitleMax)}
	}
	return map[string]any{
		"attributes": attributes(l, truncate(plainTitle(l, r), entityTitleMax), "wo.action.kind"),
		"fields":     fields,
	}
}

// ActionPanelView is an action's flexpane as one viewer may see it.
type ActionPanelView struct {
	Lang lang.Lang
	// Row is the action as the viewer sees it (RowOf): the card's fields,
	// its Meeting, the status buttons when CanChange, Snooze when
	// MaySnooze; Row.Link is the action's own link.
	Row ActionRow
	// History is the action's history, newest first, when the viewer may
	// read it; nil otherwise.
	History []AuditLine
}

// ActionPanel is the flexpane of an action for one viewer: its card's
// fields, the meeting, its history when they may read it, and the status
// buttons (and Snooze) when they may change it.
func ActionPanel(v ActionPanelView) slack.EntityDetailsMetadata {
	l, r := v.Lang, v.Row
	payload := actionPayload(l, r)
	var custom []map[string]any
	if m := rowText(r.Meeting, 0, formPlain); m != "" {
		custom = append(custom, stringField("meeting", l.T("wo.field.meeting"), truncate(m, entityTitleMax)))
	}
	if v.History != nil {
		items := make([]map[string]any, 0, len(v.History))
		for _, h := range v.History {
			items = append(items, map[string]any{"type": "string", "value": historyItem(l, h)})
		}
		if len(items) == 0 {
			items = append(items, map[string]any{"type": "string", "value": l.T("wo.history.none")})
		}
		custom = append(custom, map[string]any{"key": "history", "label": l.T("wo.field.history"), "type": "array", "item_type": "string", "value": items})
	}
	if custom != nil {
		payload["custom_fields"] = custom
	}
	if r.CanChange {
		primary, overflow := panelButtons(l, r)
		actions := map[string]any{"primary_actions": primary}
		if len(overflow) > 0 {
			actions["overflow_actions"] = overflow
		}
		payload["actions"] = actions
	}
	return slack.EntityDetailsMetadata{
		EntityType:    EntityAction,
		URL:           r.Link,
		ExternalRef:   slack.WorkObjectExternalRef{ID: r.ID, Type: RefAction},
		EntityPayload: payload,
	}
}

// panelButtons are the status changes of r's action, the common ones
// first with Snooze (when r.MaySnooze), the rarer ones in the overflow.
func panelButtons(l lang.Lang, r ActionRow) (primary, overflow []slack.EntityDetailsAction) {
	status, id := r.Status, r.ID
	buttons, menu := transitions(status)
	for _, to := range buttons {
		primary = append(primary, panelStatusButton(l, status, to, id))
	}
	if r.MaySnooze {
		primary = append(primary, slack.EntityDetailsAction{Text: l.T("wo.snooze"), ActionID: ActionPanelSnooze, Value: id})
	}
	for _, to := range menu {
		overflow = append(overflow, panelStatusButton(l, status, to, id))
	}
	return primary, overflow
}

func panelStatusButton(l lang.Lang, from, to, id string) slack.EntityDetailsAction {
	b := slack.EntityDetailsAction{Text: transitionLabel(l, from, to), ActionID: ActionPanelStatusPrefix + to, Value: to + "|" + id + "|"}
	if to == statusComplete {
		b.Style = "primary"
	}
	return b
}

// historyItem is one line of an action's history in the flexpane: when,
// and the change.
func historyItem(l lang.Lang, h AuditLine) string {
	return l.F("wo.history.line", "date", l.DateTime(h.At), "from", plainStatus(l, h.From), "to", plainStatus(l, h.To))
}

// MinutesPanelView is a meeting's minutes in the flexpane, for one viewer.
type MinutesPanelView struct {
	Minutes MinutesView
	// Agenda is the meeting's agenda items, as lines.
	Agenda []string
	// Arising are the rows (RowOf, with their links) of the meeting's
	// actions the viewer may see; Mine those of them that are theirs.
	// Each is listed as a reference to its own card.
	Arising, Mine []ActionRow
}

// panelListMax bounds each list in a flexpane; Slack publishes no limit,
// and a panel is read, not scrolled through.
const panelListMax = 50

// MinutesPanel is the flexpane of a meeting's minutes for one viewer:
// the card's fields, the agenda, the actions arising they may see and
// My actions here.
func MinutesPanel(v MinutesPanelView) slack.EntityDetailsMetadata {
	l := v.Minutes.Lang
	payload := minutesPayload(v.Minutes)
	custom := minutesFields(v.Minutes)
	if len(v.Agenda) > 0 {
		items := make([]map[string]any, 0, min(len(v.Agenda), panelListMax))
		for _, a := range v.Agenda[:min(len(v.Agenda), panelListMax)] {
			items = append(items, map[string]any{"type": "string", "value": truncate(oneLine(a), entityTitleMax)})
		}
		custom = append(custom, map[string]any{"key": "agenda", "label": l.T("wo.field.agenda"), "type": "array", "item_type": "string", "value": items})
	}
	custom = append(custom, actionRefs(l, "arising", l.T("wo.field.arising"), v.Arising), actionRefs(l, "mine", l.T("digest.mine"), v.Mine))
	payload["custom_fields"] = custom
	return slack.EntityDetailsMetadata{
		EntityType:    EntityMinutes,
		URL:           v.Minutes.URL,
		ExternalRef:   slack.WorkObjectExternalRef{ID: v.Minutes.MeetingID, Type: RefMinutes},
		EntityPayload: payload,
	}
}

// actionRefs is a list of actions, each a reference to its own card.
func actionRefs(l lang.Lang, key, label string, rows []ActionRow) map[string]any {
	items := make([]map[string]any, 0, min(len(rows), panelListMax))
	for _, r := range rows[:min(len(rows), panelListMax)] {
		items = append(items, map[string]any{"type": "slack#/types/entity_ref", "entity_ref": map[string]any{
			"entity_url":   r.Link,
			"external_ref": map[string]any{"id": r.ID, "type": RefAction},
			"title":        truncate(plainTitle(l, r), entityTitleMax),
		}})
	}
	return map[string]any{"key": key, "label": label, "type": "array", "item_type": "slack#/types/entity_ref", "value": items}
}

// The flexpane's error statuses recordsbot sends
// (https://docs.slack.dev/reference/methods/entity.presentDetails, the
// error object): Slack words them itself, in the viewer's language.
const (
	// PanelRestricted: the viewer may not see what they clicked.
	PanelRestricted = "restricted"
	// PanelNotFound: it is no longer in the records.
	PanelNotFound = "not_found"
)

// PanelError is the flexpane of a viewer who may not see what they
// clicked, or of something no longer there: Slack's status alone, and
// nothing of the thing itself.
func PanelError(status string) *slack.EntityDetailsError {
	return &slack.EntityDetailsError{Status: status}
}

// PanelTrouble is the flexpane when the records could not be read or
// refused: Slack's "custom" status with the reader's own words, title
// and message, so they know to try again.
func PanelTrouble(title, message string) *slack.EntityDetailsError {
	return &slack.EntityDetailsError{Status: "custom", CustomTitle: title, CustomMessage: message}
}

func attributes(l lang.Lang, title string, kind lang.Key) map[string]any {
	return map[string]any{
		"title":        map[string]any{"text": title},
		"display_type": l.T(kind),
		"product_name": l.T("wo.product"),
	}
}

func stringField(key, label, value string) map[string]any {
	return map[string]any{"key": key, "label": label, "type": "string", "value": value}
}

func dateField(key, label string, d time.Time) map[string]any {
	return map[string]any{"key": key, "label": label, "type": "slack#/types/date", "value": d.Format(time.DateOnly)}
}
