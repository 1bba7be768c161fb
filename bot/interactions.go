package bot

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/slack-go/slack"

	"github.com/recordsbot/recordsbot/actions"
	"github.com/recordsbot/recordsbot/apiclient"
	"github.com/recordsbot/recordsbot/audit"
	"github.com/recordsbot/recordsbot/blocks"
	"github.com/recordsbot/recordsbot/internal/lang"
	"github.com/recordsbot/recordsbot/internal/metrics"
	"github.com/recordsbot/recordsbot/internal/once"
	"github.com/recordsbot/recordsbot/internal/slackapi"
	"github.com/recordsbot/recordsbot/minutes"
)

// interaction is the part of a block_actions payload the bot reads. It is
// decoded on its own instead of with slack.InteractionCallback because
// slack-go refuses a whole payload whose message or view holds a block
// element type it does not know; a click must keep working when Slack adds
// new ones. Message blocks stay raw JSON for the same reason.
type interaction struct {
	Type string `json:"type"`
	User struct {
		ID       string `json:"id"`
		Username string `json:"username"`
	} `json:"user"`
	Channel struct {
		ID   string `json:"id"`
		Name string `json:"name"`
	} `json:"channel"`
	Container struct {
		Type        string `json:"type"` // "message" or "view"
		MessageTS   string `json:"message_ts"`
		ChannelID   string `json:"channel_id"`
		IsEphemeral bool   `json:"is_ephemeral"`
		ViewID      string `json:"view_id"`
	} `json:"container"`
	ResponseURL string `json:"response_url"`
	// TriggerID lets the answer open a modal (views.open), within three
	// seconds and once (https://api.slack.com/docs/triggers).
	TriggerID string `json:"trigger_id"`
	// View is the view clicked on or submitted: the Home tab or a modal.
	// Its hash goes back with the views.publish or views.update that
	// answers the click, so a stale answer cannot overwrite a newer one
	// (see homeUI.publishHome, clicks.updateSearchModal).
	View struct {
		ID         string `json:"id"`
		Hash       string `json:"hash"`
		Type       string `json:"type"` // "home" or "modal"
		CallbackID string `json:"callback_id"`
		// State holds what was typed in the view's inputs, by block_id
		// and action_id (a view_submission's
		// view.state.values[block_id][action_id].value).
		State struct {
			Values map[string]map[string]struct {
				Value *string `json:"value"`
			} `json:"values"`
		} `json:"state"`
	} `json:"view"`
	// Team and APIAppID name the workspace and the app, for a deep link
	// to the app's Home tab.
	Team struct {
		ID string `json:"id"`
	} `json:"team"`
	APIAppID string `json:"api_app_id"`
	Actions  []struct {
		ActionID       string `json:"action_id"`
		ActionTS       string `json:"action_ts"`
		BlockID        string `json:"block_id"`
		Value          string `json:"value"`
		SelectedOption *struct {
			Value string `json:"value"`
		} `json:"selected_option"`
		// SelectedDate is a date picker's day (bolt-js
		// DatepickerAction.selected_date).
		SelectedDate string `json:"selected_date"`
		// SelectedOptions are, for a checkbox group, every option ticked
		// after the click (bolt-js CheckboxesAction.selected_options).
		SelectedOptions []struct {
			Value string `json:"value"`
		} `json:"selected_options"`
	} `json:"actions"`
	Message *struct {
		TS     string            `json:"ts"`
		Text   string            `json:"text"`
		Blocks []json.RawMessage `json:"blocks"`
	} `json:"message"`
}

func (in *interaction) channelID() string {
	if in.Container.ChannelID != "" {
		return in.Container.ChannelID
	}
	return in.Channel.ID
}

// dispatchInteraction handles a button click. Slack ignores the body of the
// ack for block_actions, so every answer goes out as a side effect:
// response_url for ephemeral messages, chat.update for the bot's own
// messages, views.publish for the App Home. The ack waits for the work up
// to the budget, then goes anyway and the work finishes on its own.
func (s *Server) dispatchInteraction(ctx context.Context, payload []byte) ack {
	start := s.deps.Now()
	var in interaction
	if err := json.Unmarshal(payload, &in); err != nil {
		s.log.WarnContext(ctx, "interaction: malformed payload", "error", err)
		s.deps.Metrics.Request(metrics.Interaction, "malformed", "error")
		return nil
	}
	if in.Type == "view_submission" {
		return s.dispatchViewSubmission(ctx, &in, start)
	}
	if in.Type != "block_actions" || len(in.Actions) == 0 {
		s.log.DebugContext(ctx, "interaction ignored", "type", in.Type)
		return nil
	}
	act := in.Actions[0]
	value := act.Value
	if act.SelectedOption != nil {
		value = act.SelectedOption.Value
	}
	if act.SelectedDate != "" {
		// A date picker: the day picked, YYYY-MM-DD, the person's own
		// calendar date (slackfake.Click.Date).
		value = act.SelectedDate
	}
	actionID := act.ActionID
	ctx = lang.NewContext(ctx, s.knownLang(in.User.ID))
	// Who clicked, and where, for the audit trail of what it changes.
	ctx = audit.WithActor(audit.WithSurface(ctx, clickSurface(&in, "")), in.User.ID)
	release, ok := s.admit(ctx, metrics.Interaction)
	if !ok {
		s.deps.Metrics.Request(metrics.Interaction, metricActionID(actionID), "busy")
		s.sayBusy(ctx, in.ResponseURL)
		return nil
	}
	s.withBudget(ctx, release, func(ctx context.Context) *reply {
		s.clicks.click(s.reader(ctx, in.User.ID), &in, actionID, value)
		s.deps.Metrics.Finished(metrics.Interaction, start)
		return nil
	}, nil)
	s.deps.Metrics.Acked(metrics.Interaction, start)
	s.deps.Metrics.Request(metrics.Interaction, metricActionID(actionID), "ok")
	return nil
}

// metricActionID keeps the label space small whatever action IDs arrive:
// an ID clickRoutes lists is its own label, one with a prefix
// clickPrefixes lists is the prefix's label.
func metricActionID(id string) string {
	if p, ok := prefixRoute(id); ok {
		return p.metric
	}
	if _, ok := clickRoutes[id]; ok {
		return id
	}
	return "unknown"
}

// clickPrefixes are the action IDs that carry what they change after a
// prefix (the status buttons: "status:complete"), each with its metric
// label and what answers it; with clickRoutes, the one list that routes a
// click and names its metric.
var clickPrefixes = []prefixedRoute{
	{blocks.ActionPanelStatusPrefix, "panel_status", func(c *clicks, ctx context.Context, in *interaction, actionID, value string) {
		c.panels.pressed(ctx, in, actionID, value) // bot/workobjects.go
	}},
	{blocks.ActionStatusPrefix, "status", func(c *clicks, ctx context.Context, in *interaction, _, value string) {
		c.clickStatus(ctx, in, value)
	}},
}

// prefixedRoute answers the action IDs that start with prefix.
type prefixedRoute struct {
	prefix, metric string
	route          clickRoute
}

// prefixRoute is the entry of clickPrefixes whose prefix id has.
func prefixRoute(id string) (prefixedRoute, bool) {
	for _, p := range clickPrefixes {
		if strings.HasPrefix(id, p.prefix) {
			return p, true
		}
	}
	return prefixedRoute{}, false
}

// clickRoute answers one kind of click.
type clickRoute func(c *clicks, ctx context.Context, in *interaction, actionID, value string)

// clickRoutes is every action ID the bot answers, with what answers it,
// besides the status buttons, whose IDs carry the status (click): the
// one list that routes a click and names its metric.
var clickRoutes = map[string]clickRoute{
	blocks.ActionPanelSnooze: func(c *clicks, ctx context.Context, in *interaction, actionID, value string) {
		c.panels.pressed(ctx, in, actionID, value) // bot/workobjects.go
	},
	// A row's menu: its rarer status changes and its Snooze choices.
	blocks.ActionRowMenu: func(c *clicks, ctx context.Context, in *interaction, actionID, value string) {
		if blocks.IsSnoozeChoice(value) {
			c.clickSnooze(ctx, in, actionID, value)
			return
		}
		c.clickStatus(ctx, in, value)
	},
	blocks.ActionSnooze:     (*clicks).clickSnooze, // bot/snooze.go
	blocks.ActionSnoozeDate: (*clicks).clickSnooze,
	blocks.ActionUnsnooze:   (*clicks).clickSnooze,
	blocks.ActionAwaySet:    (*clicks).clickAway, // bot/home_steer.go
	blocks.ActionAwayEnd:    (*clicks).clickAway,
	blocks.ActionCadence:    (*clicks).clickAway,
	blocks.ActionActionsMore: func(c *clicks, ctx context.Context, in *interaction, _, value string) {
		c.clickActionsMore(ctx, in, value)
	},
	blocks.ActionMeetingsNext: func(c *clicks, ctx context.Context, in *interaction, _, value string) {
		c.clickMeetingsNext(ctx, in, value)
	},
	// The Actions button of a minutes announcement: the meeting's
	// actions, to the clicker only, as /actions meeting <id> shows them.
	blocks.ActionMeetingActions: func(c *clicks, ctx context.Context, in *interaction, _, value string) {
		c.tell(ctx, in, c.acts.actionsPage(ctx, in.User.ID, actionsQuery{Meeting: value}, nil))
	},
	// "My actions here" under a weekly digest: the clicker's own
	// actions of its committee, to them only, with the usual buttons.
	blocks.ActionDigestMine: func(c *clicks, ctx context.Context, in *interaction, _, value string) {
		c.tell(ctx, in, c.acts.actionsPage(ctx, in.User.ID, actionsQuery{Committee: value}, nil))
	},
	blocks.ActionMeetingAgenda: func(c *clicks, ctx context.Context, in *interaction, _, value string) {
		c.clickMeetingAgenda(ctx, in, value)
	},
	blocks.ActionMeetingMinutes: func(c *clicks, ctx context.Context, in *interaction, _, value string) {
		c.clickMeetingMinutes(ctx, in, value)
	},
	blocks.ActionMinutesShare: func(c *clicks, ctx context.Context, in *interaction, _, value string) {
		c.clickShare(ctx, in, value)
	},
	blocks.ActionSearchMore: func(c *clicks, ctx context.Context, in *interaction, _, value string) {
		c.clickSearchMore(ctx, in, value)
	},
	blocks.ActionHomeSearch: func(c *clicks, ctx context.Context, in *interaction, _, _ string) {
		c.openSearchModal(ctx, in)
	},
	blocks.ActionAuditMore: func(c *clicks, ctx context.Context, in *interaction, _, value string) {
		c.clickAuditMore(ctx, in, value)
	},
	blocks.ActionHomeMore: func(c *clicks, ctx context.Context, in *interaction, _, value string) {
		c.clickHomeMore(ctx, in, value)
	},
	blocks.ActionSettingsRemind:    (*clicks).clickSetting,
	blocks.ActionSettingsRemindAt:  (*clicks).clickSetting,
	blocks.ActionSettingsWeekdays:  (*clicks).clickSetting,
	blocks.ActionSettingsAssignDMs: (*clicks).clickSetting,
	blocks.ActionCalendarGet: func(c *clicks, ctx context.Context, in *interaction, actionID, _ string) {
		c.clickCalendar(ctx, in, actionID)
	},
	blocks.ActionCalendarReset: func(c *clicks, ctx context.Context, in *interaction, actionID, _ string) {
		c.clickCalendar(ctx, in, actionID)
	},
	blocks.ActionNotifyStop: func(c *clicks, ctx context.Context, in *interaction, _, value string) {
		c.clickNotifyStop(ctx, in, value)
	},
	blocks.ActionNotifySettings: func(c *clicks, ctx context.Context, in *interaction, _, _ string) {
		c.clickNotifySettings(ctx, in)
	},
	blocks.ActionFollowChoices: func(c *clicks, ctx context.Context, in *interaction, _, _ string) {
		c.redraw(ctx, in, c.mins.follow.choose(ctx, in))
	},
	blocks.ActionTopicStop: func(c *clicks, ctx context.Context, in *interaction, _, value string) {
		c.clickTopicStop(ctx, in, value) // bot/commands_topics.go
	},
	blocks.ActionTopicAdd: func(c *clicks, ctx context.Context, in *interaction, _, _ string) {
		c.openTopicModal(ctx, in)
	},
	// A link button: Slack opens the URL; nothing to do.
	blocks.ActionOpenLink: func(*clicks, context.Context, *interaction, string, string) {},
}

func (c *clicks) click(ctx context.Context, in *interaction, actionID, value string) {
	p, prefixed := prefixRoute(actionID)
	switch {
	case prefixed:
		p.route(c, ctx, in, actionID, value)
	case clickRoutes[actionID] != nil:
		clickRoutes[actionID](c, ctx, in, actionID, value)
	default:
		c.log.InfoContext(ctx, "interaction: unknown action", "action_id", actionID)
		c.tell(ctx, in, notice(staleButton(ctx)))
	}
}

// staleButton is the answer to a click the bot cannot read, in the
// clicker's language.
func staleButton(ctx context.Context) string { return lang.FromContext(ctx).T("msg.stale_button") }

// tell answers the clicker with a new message, leaving the one the button
// was on as it was; redraw replaces that message. Where the answer shows
// is decided by where the click came from (clickedOn), each its own path.
func (c *clicks) tell(ctx context.Context, in *interaction, r *reply) {
	c.answer(ctx, in, r, keepOriginal)
}

// redraw answers the clicker by replacing the message the button was on
// with r: the one way a click redraws where it came from, whatever
// changed (a page, a row, a note). The bot's own message in a channel or a
// DM (a reminder, an assignment DM) is updated with chat.update, so the
// change shows to everyone who sees it; an ephemeral message, which
// chat.update cannot reach
// (https://docs.slack.dev/reference/methods/chat.update), is replaced
// through its response_url; a view (the Home tab, a modal) shows r's text
// as a note. It reports whether the message was redrawn; a failure is
// logged, and the caller says what was done all the same.
func (c *clicks) redraw(ctx context.Context, in *interaction, r *reply) bool {
	if in.Container.Type == "message" && !in.Container.IsEphemeral && in.Message != nil {
		return c.updateClicked(ctx, in, r)
	}
	return c.answer(ctx, in, r, replaceOriginal)
}

// original is what a click's answer does with the message the button was
// on.
type original bool

const (
	keepOriginal    original = false
	replaceOriginal original = true
)

// answer shows r where the click came from; see tell and redraw. It
// reports false when the answer could not be sent.
func (c *clicks) answer(ctx context.Context, in *interaction, r *reply, orig original) bool {
	switch {
	case in.View.Type == "modal":
		// A modal has no response_url, and its answer would not show on
		// the Home tab behind it: the modal says it instead.
		c.noteInSearchModal(ctx, in, r.Text)
	case in.Container.Type == "view" || in.ResponseURL == "":
		// The App Home has no response_url: the note is shown at the top
		// of the Home tab.
		c.answerOnHome(ctx, in, homeState{note: r.Text})
	default:
		return c.answerByResponseURL(ctx, in, r, orig)
	}
	return true
}

// answerByResponseURL answers a click on a message through its
// response_url, ephemerally, replacing the message when orig says so.
func (c *clicks) answerByResponseURL(ctx context.Context, in *interaction, r *reply, orig original) bool {
	out := *r
	out.ResponseType = slack.ResponseTypeEphemeral
	out.ReplaceOriginal = bool(orig)
	if err := c.post(ctx, in.ResponseURL, &out); err != nil {
		c.log.ErrorContext(ctx, "interaction: response_url failed", "error", err)
		return false
	}
	return true
}

// updateClicked replaces the bot's own message the button was on with r,
// with chat.update; see redraw.
func (c *clicks) updateClicked(ctx context.Context, in *interaction, r *reply) bool {
	_, _, _, err := c.slack.UpdateMessageContext(ctx, in.channelID(), in.Message.TS, slack.MsgOptionText(r.Text, false), slack.MsgOptionBlocks(r.Blocks...))
	switch {
	case err != nil && echoUnreadable(err):
		// Slack accepted the update (an ok:false answer or an HTTP
		// failure decodes fine); only its echo of the message, which
		// holds block types slack-go does not know, could not be read.
		c.log.InfoContext(ctx, "interaction: chat.update echo unreadable; update accepted", "error", err)
	case err != nil:
		c.log.ErrorContext(ctx, "interaction: chat.update failed", "error", err)
		return false
	}
	return true
}

// rowReplaced is the message the button was on, its own blocks with row
// in place of the row's old one; false when Slack sent no message (an
// ephemeral one) or the row is not in it.
func (in *interaction) rowReplaced(row blocks.ActionRow) ([]json.RawMessage, bool) {
	if in.Message == nil {
		return nil, false
	}
	// The redraw keeps only the blocks the bot renders. Slack echoes back
	// blocks it shows in a message but refuses from an app (a call block,
	// or an image block with the properties Slack added: chat.update
	// answers invalid_blocks,
	// https://github.com/slackapi/bolt-js/issues/1841); sending the echo
	// first would cost a refused update before every redraw.
	return blocks.ReplaceRow(blocks.OwnBlocks(in.Message.Blocks), row)
}

// answerOnHome answers a click by publishing the clicker's Home tab, as a
// newer version of the one clicked on.
func (c *clicks) answerOnHome(ctx context.Context, in *interaction, st homeState) {
	st.hash = in.View.Hash
	c.home.publishHomeLogged(ctx, in.User.ID, st)
}

// clickActionsMore draws the next page of an /actions list: value is
// its query from the next offset (actionsQuery.moreValue).
func (c *clicks) clickActionsMore(ctx context.Context, in *interaction, value string) {
	var q actionsQuery
	if err := json.Unmarshal([]byte(value), &q); err != nil {
		c.tell(ctx, in, notice(staleButton(ctx)))
		return
	}
	c.redraw(ctx, in, c.acts.actionsPage(ctx, in.User.ID, q, nil))
}

// clickMeetingsNext draws the next page of /meetings from the cursor in
// value.
func (c *clicks) clickMeetingsNext(ctx context.Context, in *interaction, value string) {
	var cur meetingsCursor
	if err := json.Unmarshal([]byte(value), &cur); err != nil {
		c.tell(ctx, in, notice(staleButton(ctx)))
		return
	}
	c.redraw(ctx, in, c.mins.meetingsPage(ctx, cur))
}

// clickMeetingAgenda shows the clicker the meeting whose ID is value.
func (c *clicks) clickMeetingAgenda(ctx context.Context, in *interaction, value string) {
	m, err := c.mins.svc.Meeting(ctx, value)
	if err != nil {
		c.tell(ctx, in, notice(c.meetingErrorText(ctx, value, err)))
		return
	}
	c.tell(ctx, in, ephemeral(blocks.Meeting(c.mins.meetingRow(lang.FromContext(ctx), m))))
}

// clickMeetingMinutes shows the clicker the minutes of the meeting whose
// ID is value, or that they are not published yet.
func (c *clicks) clickMeetingMinutes(ctx context.Context, in *interaction, value string) {
	e, err := c.mins.svc.Read(ctx, value)
	if err != nil {
		c.tell(ctx, in, notice(c.meetingErrorText(ctx, value, err)))
		return
	}
	if e.Minutes == nil {
		c.tell(ctx, in, notice(lang.FromContext(ctx).F("minutes.not_published", "title", blocks.Escape(e.Meeting.Name()))))
		return
	}
	c.tell(ctx, in, c.mins.minutesReply(lang.FromContext(ctx), e))
}

// clickHomeMore redraws the Home tab from the offset in value.
func (c *clicks) clickHomeMore(ctx context.Context, in *interaction, value string) {
	offset, err := strconv.Atoi(value)
	if err != nil {
		c.tell(ctx, in, notice(staleButton(ctx)))
		return
	}
	c.answerOnHome(ctx, in, homeState{offset: offset})
}

// parseStatusValue splits a status button's value: "<status>|<action
// id>|<context>", where context (see actionsQuery.context) never holds '|'
// and may be empty, so an ID containing '|' still parses.
func parseStatusValue(v string) (st apiclient.Status, id, pageCtx string, ok bool) {
	first := strings.IndexByte(v, '|')
	last := strings.LastIndexByte(v, '|')
	if first < 0 || last == first {
		return "", "", "", false
	}
	st, id, pageCtx = apiclient.Status(v[:first]), v[first+1:last], v[last+1:]
	if id == "" || !st.Valid() {
		return "", "", "", false
	}
	return st, id, pageCtx, true
}

// clickStatus changes an action's status from a button and updates the
// message in place. On any failure the original message is left as it was
// and the clicker is told, ephemerally, what happened.
func (c *clicks) clickStatus(ctx context.Context, in *interaction, value string) {
	to, id, pageCtx, ok := parseStatusValue(value)
	ctx = audit.WithSurface(ctx, clickSurface(in, pageCtx))
	if !ok {
		c.log.WarnContext(ctx, "interaction: bad status value", "user", in.User.ID)
		c.trail.record(ctx, change{actor: in.User.ID, kind: audit.ActionStatus, target: id, to: string(to), outcome: audit.Refused(audit.ReasonStale)})
		c.tell(ctx, in, notice(staleButton(ctx)))
		return
	}
	a, ok := c.changeStatus(ctx, in, id, to)
	if !ok {
		return
	}
	change := &blocks.Change{By: in.User.ID, At: c.now(), Status: string(to)}
	if in.Container.Type == "view" {
		// The Home tab draws the row itself, with the clicked change.
		c.answerOnHome(ctx, in, homeState{clicked: &clicked{action: a, change: change}})
		return
	}
	c.showChangeOnMessage(ctx, in, a, change, c.acts.changedRow(ctx, &a, change), pageCtx)
}

// changeStatus sets the status of action id to to, for the clicker. It
// reports false when the status was not changed by this click: the
// clicker has been told why, or the click was the second of a double
// click, whose first updates the message.
func (c *clicks) changeStatus(ctx context.Context, in *interaction, id string, to apiclient.Status) (apiclient.Action, bool) {
	a, outcome, err := c.acts.setStatus(ctx, in.User.ID, id, to)
	if outcome == actions.Duplicate && err == nil {
		return a, false
	}
	if err != nil || outcome != actions.Changed {
		c.tell(ctx, in, notice(c.acts.statusOutcomeText(ctx, id, a, to, outcome, err)))
		return a, false
	}
	return a, true
}

// showChangeOnMessage shows the clicker row, a just changed by change, on
// the message the button was on: the message redrawn with the row
// replaced, the page of an ephemeral list redrawn from the query its
// button carried (pageCtx), or, when neither can be, a notice with the
// row.
func (c *clicks) showChangeOnMessage(ctx context.Context, in *interaction, a apiclient.Action, change *blocks.Change, row blocks.ActionRow, pageCtx string) {
	done := blocks.StatusDone(row.Lang, change.Status, blocks.Escape(a.Title))
	newBlocks, ok := in.rowReplaced(row)
	if !ok && in.Container.IsEphemeral {
		// Slack leaves an ephemeral message out of the payload; redraw the
		// page the button was on, from the query its value carries.
		if q, qok := parseContext(pageCtx); qok {
			c.redraw(ctx, in, c.acts.actionsPage(ctx, in.User.ID, q, &clicked{action: a, change: change}))
			return
		}
	}
	if !ok {
		msg := blocks.Notice(done)
		msg.Blocks = append(msg.Blocks, blocks.ActionRowBlocks(row)...)
		c.tell(ctx, in, ephemeral(msg))
		return
	}
	if !c.redraw(ctx, in, &reply{Text: done, Blocks: blocks.RawBlocks(c.recountReminder(ctx, newBlocks, &a))}) {
		// The change was made; say so honestly even though the message
		// could not be refreshed.
		c.tell(ctx, in, notice(lang.FromContext(ctx).F("status.not_refreshed", "done", done)))
	}
}

// clickShare posts a minutes summary to the channel as the bot, with who
// shared it, exactly once (internal/once, PostNow: the person waits on
// it): when Slack's answer is lost, the channel's history says whether
// the post is out, by the click's key in its metadata, so the person is
// never invited to share it twice.
func (c *clicks) clickShare(ctx context.Context, in *interaction, meetingID string) {
	e, err := c.mins.svc.Read(ctx, meetingID)
	if err == nil && e.Minutes == nil {
		err = fmt.Errorf("minutes of %s: %w", meetingID, apiclient.ErrNotFound)
	}
	if err != nil {
		c.tell(ctx, in, notice(c.meetingErrorText(ctx, meetingID, err)))
		return
	}
	// The post is the channel's, read by many: ORG_LANGUAGE. What the
	// sharer alone is told is in theirs.
	msg := blocks.Minutes(blocks.MinutesView{Display: c.mins.svc.View(e), Lang: c.mins.org, SharedBy: in.User.ID})
	lg := lang.FromContext(ctx)
	channel := in.channelID()
	key := shareKey(in)
	r := c.shares.PostNow(ctx, once.Work{
		Key:          key,
		Conversation: func(context.Context) (string, error) { return channel, nil },
		Post: func(ctx context.Context) (string, error) {
			_, ts, err := c.slack.PostMessageContext(ctx, channel, slack.MsgOptionText(msg.Text, false), slack.MsgOptionBlocks(msg.Blocks...),
				slack.MsgOptionMetadata(blocks.ShareMetadata(key, e.Meeting.ID)))
			return ts, err
		},
	})
	shared := lg.F("share.done", "title", blocks.Escape(e.Meeting.Name()))
	switch r.Outcome {
	case once.Sent:
		c.trail.record(ctx, change{kind: audit.MinutesShare, target: e.Meeting.ID, to: channel})
		c.redraw(ctx, in, notice(shared))
	case once.Recovered, once.Already:
		// Slack's answer was lost, but the post is in the channel.
		c.trail.record(ctx, change{kind: audit.MinutesShare, target: e.Meeting.ID, to: channel})
		c.tell(ctx, in, notice(shared))
	case once.Unknown:
		c.log.ErrorContext(ctx, "share minutes: answer lost, and the history could not be read", "error", r.Err)
		c.trail.record(ctx, change{kind: audit.MinutesShare, target: e.Meeting.ID, to: channel, outcome: audit.Unconfirmed})
		c.tell(ctx, in, notice(lg.T("share.unknown")))
	default:
		c.tell(ctx, in, notice(c.shareRefused(ctx, in, e, r.Err)))
	}
}

// shareHistoryDepth is how many of the channel's latest messages are read
// to find a share whose answer was lost: the post is seconds old.
const shareHistoryDepth = 20

// shareKey names one Share in channel click: the person and the click's
// action_ts, which Slack gives each click.
func shareKey(in *interaction) string {
	ts := ""
	if len(in.Actions) > 0 {
		ts = in.Actions[0].ActionTS
	}
	return "share/" + in.User.ID + "/" + ts
}

// shareRefused is what the person is told when the minutes of e were not
// shared: err is Slack's refusal, or its lost answer to a post that is not
// in the channel.
func (c *clicks) shareRefused(ctx context.Context, in *interaction, e minutes.Entry, err error) string {
	lg := lang.FromContext(ctx)
	channel := in.channelID()
	switch code := slackapi.ErrorCode(err); {
	case code == "not_in_channel", code == "channel_not_found":
		return cantPostHere(lg, code, channel, in.Channel.Name, blocks.Escape(c.mins.minutesURL(e.Meeting.ID, e.Minutes)))
	case slackapi.Refused(err):
		c.log.ErrorContext(ctx, "share minutes: chat.postMessage refused", "error", err)
	default:
		c.log.ErrorContext(ctx, "share minutes: answer lost, and the post is not in the channel", "error", err)
	}
	return lg.T("share.refused")
}

// cantPostHere says why the bot could not post in a conversation, and
// what will work there. Slack answers not_in_channel in a public channel
// the bot is not in, where an invitation helps; channel_not_found in a
// private channel it is not in (an invitation helps), and in a DM between
// people or a group DM, where apps cannot be invited at all
// (https://api.slack.com/methods/chat.postMessage#errors).
func cantPostHere(lg lang.Lang, code, channelID, channelName, link string) string {
	instead := lg.T("share.instead")
	if link != "" {
		instead = lg.F("share.instead_link", "link", link)
	}
	share := lg.T("minutes.share") // the button's own label
	switch {
	case code == "not_in_channel":
		return lg.F("share.not_in_channel", "share", share)
	case conversationOf(channelID, channelName) == inDM:
		return lg.F("share.dm", "instead", instead)
	case conversationOf(channelID, channelName) == inGroupDM:
		return lg.F("share.group_dm", "instead", instead)
	}
	return lg.F("share.private", "share", share)
}

func (c *clicks) meetingErrorText(ctx context.Context, id string, err error) string {
	if isNotFound(err) {
		return lang.FromContext(ctx).F("meeting.gone", "id", blocks.Escape(id))
	}
	return c.say(ctx, "meeting button", err)
}
