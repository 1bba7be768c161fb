package bot

import (
	"context"
	"log/slog"
	"strings"

	"github.com/slack-go/slack"
	"github.com/slack-go/slack/slackevents"

	"github.com/recordsbot/recordsbot/actions"
	"github.com/recordsbot/recordsbot/apiclient"
	"github.com/recordsbot/recordsbot/audit"
	"github.com/recordsbot/recordsbot/blocks"
	"github.com/recordsbot/recordsbot/internal/lang"
)

// Work Objects: links to minutes and to actions unfurl as Slack's own
// cards, and a click on a card opens the flexpane, which the bot draws
// for the person who clicked
// (https://docs.slack.dev/messaging/work-objects-overview,
// https://docs.slack.dev/messaging/work-objects-implementation). The
// cards need the app's "Work Object Previews" setting, which has no
// manifest key; WORK_OBJECTS tells the bot it is on (Config.WorkObjects),
// and without it links unfurl as classic attachments. doctor says which.

// panels answers entity_details_requested, a click on a card, and the
// flexpane's buttons.
type panels struct {
	actions *actions.Service
	acts    *actionsUI
	mins    *minutesUI
	home    *homeUI
	slack   SlackAPI
	log     *slog.Logger
	say     userMessageFunc
}

// linkCards are what one link_shared event's links unfurl as: classic
// attachments, or Work Object entities.
type linkCards struct {
	classic  map[string]slack.Attachment
	entities []slack.WorkObjectEntity
}

// cards reads each link of ev: a minutes page (the bot's or the record's
// own URL) of visible minutes, or, with Work Objects, an action's link.
// Links to anything else, to minutes that are not visible, and to actions
// without Work Objects are left for Slack to show as it would.
func (f *unfurler) cards(ctx context.Context, ev *slackevents.LinkSharedEvent) linkCards {
	out := linkCards{classic: map[string]slack.Attachment{}}
	for _, l := range ev.Links {
		if id, ok := f.minutesOf(l.URL); ok {
			f.minutesCard(ctx, &out, l.URL, id)
			continue
		}
		if id, ok := f.actions.LinkID(l.URL); ok && f.workObjects {
			if e, ok := f.actionCard(ctx, ev.User, l.URL, id); ok {
				out.entities = append(out.entities, e)
			}
		}
	}
	return out
}

// minutesOf is the meeting a minutes link names: the bot's own page, or
// the record's own minutes URL as the bot last read it.
func (f *unfurler) minutesOf(link string) (string, bool) {
	if id, ok := f.mins.svc.PageID(link); ok {
		return id, true
	}
	return f.mins.svc.MeetingOfURL(link)
}

// minutesCard adds the card of meeting id's minutes under link: only
// what the public page shows, and nothing for minutes not visible.
func (f *unfurler) minutesCard(ctx context.Context, out *linkCards, link, id string) {
	e, err := f.mins.svc.Get(ctx, id)
	switch {
	case err != nil && !isNotFound(err):
		f.log.WarnContext(ctx, "unfurl: records unavailable", "meeting", id, "error", err)
		return
	case err != nil || e.Minutes == nil:
		f.log.DebugContext(ctx, "unfurl: no published minutes", "meeting", id)
		return
	}
	// The card is the conversation's, read by many: ORG_LANGUAGE.
	v := blocks.MinutesView{Display: f.mins.svc.View(e), Lang: f.mins.org}
	if f.workObjects {
		out.entities = append(out.entities, blocks.MinutesCard(link, v))
		return
	}
	out.classic[link] = blocks.UnfurlMinutes(v)
}

// actionCard is the card of action id under link, pasted by poster: the
// task as Share in channel would show it when poster may see the action,
// else "an action in recordsbot" and nothing of it (an action that does
// not exist gets the same, so a link gives nothing away). It reads the
// shared action list and the poster's cached profile: no records call the
// unfurl would not make. ok is false when the records could not be read.
func (f *unfurler) actionCard(ctx context.Context, poster, link, id string) (slack.WorkObjectEntity, bool) {
	a, found, err := f.actions.Find(ctx, id)
	if err != nil {
		f.log.WarnContext(ctx, "unfurl: records unavailable", "action", id, "error", err)
		return slack.WorkObjectEntity{}, false
	}
	me, meErr := f.actions.Who(ctx, poster)
	if meErr != nil {
		f.log.DebugContext(ctx, "unfurl: poster's profile unreadable", "error", meErr)
	}
	if !found || !f.actions.CanSee(me, a.Assignee) {
		return blocks.ActionStub(f.mins.org, link, f.actions.Link(id), id), true
	}
	// The card is everyone's in the conversation: a channel's row of
	// the action. It says nothing of overdue, so no clock is read.
	r := blocks.RowOf(&a, actions.ChannelView(actions.NotDue), f.actions.Link(a.ID), nil)
	return blocks.ActionCard(blocks.ActionCardView{Lang: f.mins.org, Link: link, Row: r}), true
}

// send unfurls the cards: Work Object entities with chat.unfurl's
// metadata, classic attachments with its unfurls (one call each kind,
// none when there is nothing). A composer's link is addressed by its
// unfurl ID (see unfurlTarget).
func (f *unfurler) send(ctx context.Context, ev *slackevents.LinkSharedEvent, target unfurlTarget, c linkCards) {
	composer := target.Source == "composer" && target.UnfurlID != ""
	if len(c.entities) > 0 {
		var opts []slack.MsgOption
		if composer {
			opts = append(opts, slack.MsgOptionUnfurlByID(target.UnfurlID, target.Source, nil))
		}
		meta := slack.WorkObjectMetadata{Entities: c.entities}
		if _, _, _, err := f.slack.UnfurlMessageWorkObjectContext(ctx, ev.Channel, ev.MessageTimeStamp, nil, meta, opts...); err != nil {
			f.log.ErrorContext(ctx, "unfurl: chat.unfurl with Work Objects failed", "error", err)
		}
	}
	if len(c.classic) > 0 {
		var opts []slack.MsgOption
		if composer {
			opts = append(opts, slack.MsgOptionUnfurlByID(target.UnfurlID, target.Source, c.classic))
		}
		if _, _, _, err := f.slack.UnfurlMessageContext(ctx, ev.Channel, ev.MessageTimeStamp, c.classic, opts...); err != nil {
			f.log.ErrorContext(ctx, "unfurl: chat.unfurl failed", "error", err)
		}
	}
}

// open answers entity_details_requested: the flexpane of the card ev's
// user clicked, drawn for them under the visibility rule of /actions,
// in their language (ctx, see Server.reader).
func (p *panels) open(ctx context.Context, ev *slackevents.EntityDetailsRequestedEvent) {
	switch ev.ExternalRef.Type {
	case blocks.RefAction:
		p.present(ctx, ev.TriggerID, p.actionPanel(ctx, ev.User, ev.ExternalRef.ID))
	case blocks.RefMinutes:
		p.present(ctx, ev.TriggerID, p.minutesPanel(ctx, ev.User, ev.ExternalRef.ID))
	default:
		// A card of another kind, or of an older version: nothing of it
		// can be drawn.
		p.log.InfoContext(ctx, "panel: unknown entity", "type", ev.ExternalRef.Type)
		p.present(ctx, ev.TriggerID, panel{err: blocks.PanelError(blocks.PanelNotFound)})
	}
}

// panel is one flexpane: the entity, or the error shown instead.
type panel struct {
	meta *slack.EntityDetailsMetadata
	err  *slack.EntityDetailsError
}

// present sends pn for the click that handed out trigger.
func (p *panels) present(ctx context.Context, trigger string, pn panel) {
	err := p.slack.EntityPresentDetailsContext(ctx, slack.EntityPresentDetailsParameters{TriggerID: trigger, Metadata: pn.meta, Error: pn.err})
	if err != nil {
		p.log.ErrorContext(ctx, "panel: entity.presentDetails failed", "error", err)
	}
}

// trouble is the flexpane when the records could not be read (the
// detail logged once, by say): the reader told to try again.
func (p *panels) trouble(ctx context.Context) panel {
	l := lang.FromContext(ctx)
	return panel{err: blocks.PanelTrouble(l.T("wo.panel.trouble_title"), l.T("wo.panel.trouble"))}
}

// actionPanel is action id's flexpane for viewer: the visibility rule of
// /actions history (actions.Service.CanSeeHistory; someone who may see
// only their own is refused alike for another's action and for one that
// does not exist), then the action's details, its history and the buttons
// they may press. It reads the shared action list.
func (p *panels) actionPanel(ctx context.Context, viewer, id string) panel {
	me, meErr := p.actions.Who(ctx, viewer)
	a, found, err := p.actions.Find(ctx, id)
	if err != nil {
		p.say(ctx, "action panel", err)
		return p.trouble(ctx)
	}
	if !p.actions.CanSeeHistory(me, &a, found) {
		if meErr != nil && !me.Mapped() {
			p.say(ctx, "action panel", meErr)
			return p.trouble(ctx)
		}
		return panel{err: blocks.PanelError(blocks.PanelRestricted)}
	}
	if !found {
		return panel{err: blocks.PanelError(blocks.PanelNotFound)}
	}
	// The row as the viewer sees it, naming the assignee as the card
	// the panel opens from does for everyone.
	view := p.acts.snoozes.view(p.actions.ViewOf(me, &a, p.acts.now(), actions.SeveralPeople), me, &a)
	r := blocks.RowOf(&a, view, p.actions.Link(a.ID), nil)
	v := blocks.ActionPanelView{Lang: lang.FromContext(ctx), Row: r}
	if p.acts.trail != nil {
		es, err := p.acts.trail.AuditOf(ctx, a.ID, historyLimit)
		if err != nil {
			p.say(ctx, "action panel history", err) // the rest still shows
		} else {
			v.History = auditLines(es)
		}
	}
	meta := blocks.ActionPanel(v)
	return panel{meta: &meta}
}

// minutesPanel is meeting id's minutes in the flexpane for viewer: what
// the card shows, the agenda, and the actions arising (still to do) that
// viewer may see, with theirs as My actions here. It reads the minutes
// and the action list through their shared caches.
func (p *panels) minutesPanel(ctx context.Context, viewer, id string) panel {
	e, err := p.mins.svc.Get(ctx, id)
	switch {
	case err != nil && !isNotFound(err):
		p.say(ctx, "minutes panel", err)
		return p.trouble(ctx)
	case err != nil || e.Minutes == nil:
		return panel{err: blocks.PanelError(blocks.PanelNotFound)}
	}
	l := lang.FromContext(ctx)
	v := blocks.MinutesPanelView{Minutes: blocks.MinutesView{Display: p.mins.svc.View(e), Lang: l}}
	for _, item := range e.Meeting.Agenda {
		v.Agenda = append(v.Agenda, agendaLine(item))
	}
	list, err := p.actions.List(ctx, "")
	if err != nil {
		p.say(ctx, "minutes panel", err)
		return p.trouble(ctx)
	}
	me, meErr := p.actions.Who(ctx, viewer)
	if meErr != nil {
		p.log.WarnContext(ctx, "minutes panel: viewer's profile unreadable; their own actions only", "error", meErr)
	}
	var arising []*apiclient.Action
	for i := range list.Actions {
		if a := &list.Actions[i]; actions.AroseAt(a, e.Meeting) {
			arising = append(arising, a)
		}
	}
	seen := p.actions.Visible(me, arising)
	// In the one order of actions (actions.CompareUrgency), as /actions
	// meeting lists them.
	now := p.acts.now()
	p.acts.sortKeeping(seen, now, me.Zone, nil)
	for _, a := range seen {
		ref := blocks.RowOf(a, p.actions.ViewOf(me, a, now, actions.SeveralPeople), p.actions.Link(a.ID), nil)
		v.Arising = append(v.Arising, ref)
		if me.Owns(a.Assignee) {
			v.Mine = append(v.Mine, ref)
		}
	}
	meta := blocks.MinutesPanel(v)
	return panel{meta: &meta}
}

// agendaLine is an agenda item as one line: its number, then its title.
func agendaLine(item apiclient.AgendaItem) string {
	if item.Number == "" {
		return item.Title
	}
	return item.Number + ". " + item.Title
}

// pressed answers a button of an action's flexpane: a status change
// through the path every status button takes (the visibility and change
// rules, the audit trail, the records PUT), then the clicker's Home tab
// and the flexpane redrawn. The click carries a trigger for the redraw;
// Slack publishes nothing else of where the panel is.
func (p *panels) pressed(ctx context.Context, in *interaction, actionID, value string) {
	ctx = audit.WithSurface(ctx, audit.Panel)
	user := in.User.ID
	var id, msg string
	switch {
	case strings.HasPrefix(actionID, blocks.ActionPanelStatusPrefix):
		to, aid, _, ok := parseStatusValue(value)
		if !ok {
			p.present(ctx, in.TriggerID, p.refused(ctx, staleButton(ctx)))
			return
		}
		id = aid
		a, outcome, err := p.acts.setStatus(ctx, user, id, to)
		switch {
		case err == nil && outcome == actions.Changed:
		case err == nil && outcome == actions.Duplicate:
			// The first click of a double click redraws.
		default:
			msg = p.acts.statusOutcomeText(ctx, id, a, to, outcome, err)
		}
	case actionID == blocks.ActionPanelSnooze:
		id = value
		res := p.acts.snoozes.snooze(ctx, user, id, blocks.SnoozeWorkingDay, "")
		if res.action == nil {
			msg = res.msg
		}
	}
	if msg != "" {
		p.present(ctx, in.TriggerID, p.refused(ctx, msg))
		return
	}
	p.acts.memo.forget(user)
	p.home.publishHomeLogged(ctx, user, homeState{})
	p.present(ctx, in.TriggerID, p.actionPanel(ctx, user, id))
}

// refused is the flexpane saying why a button changed nothing.
func (p *panels) refused(ctx context.Context, msg string) panel {
	return panel{err: blocks.PanelTrouble(lang.FromContext(ctx).T("wo.panel.unchanged_title"), msg)}
}
