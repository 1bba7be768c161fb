package bot

import (
	"context"
	"errors"
	"strings"

	"github.com/slack-go/slack"

	"github.com/recordsbot/recordsbot/blocks"
	"github.com/recordsbot/recordsbot/internal/lang"
	"github.com/recordsbot/recordsbot/store"
	"github.com/recordsbot/recordsbot/topics"
)

// topicUI is /minutes watch and watching, their Stop buttons and the Home
// tab's topic section: it reads what people type and click, asks the
// topic domain (package topics) and draws its answers. Whether someone may
// change a channel's watches is the follow domain's rule, asked through
// follow.
type topicUI struct {
	topics *topics.Service // nil: the bot runs without a store
	follow *followUI
}

// topicOwner is whose watches a command or click in channelID by userID
// reaches: in a DM with the bot, the person's; in a channel, the
// channel's.
func topicOwner(userID, channelID, channelName string) topics.Owner {
	if channelID == "" || conversationOf(channelID, channelName) == inDM {
		return topics.Owner{UserID: userID}
	}
	return topics.Owner{ChannelID: channelID}
}

// topicCommand answers `/minutes watch <words>` and `/minutes watching`,
// or returns nil for any other /minutes text.
func (tu *topicUI) topicCommand(ctx context.Context, cmd command) *reply {
	if len(cmd.Args.Words) == 0 {
		return nil
	}
	verb := strings.ToLower(cmd.Args.Words[0].Text)
	if verb != "watch" && verb != "watching" {
		return nil
	}
	lg := lang.FromContext(ctx)
	if conversationOf(cmd.ChannelID, cmd.ChannelName) == inGroupDM {
		return notice(lg.T("topic.mpdm"))
	}
	if tu.topics == nil {
		return notice(lg.T("follow.store_not_set"))
	}
	owner := topicOwner(cmd.UserID, cmd.ChannelID, cmd.ChannelName)
	if verb == "watching" {
		return tu.list(ctx, owner)
	}
	if owner.ChannelID != "" {
		if err := tu.follow.follows.MayChange(ctx, cmd.UserID); err != nil {
			return notice(tu.follow.refusal(ctx, cmd.UserID, err, "follow.admins_only", "follow.guest"))
		}
	}
	_, rest, _ := strings.Cut(cmd.Args.Plain, cmd.Args.Words[0].Text)
	return tu.add(ctx, owner, cmd.UserID, rest)
}

// add starts a watch and says so: to the person in their DM, in the
// channel for a channel's (as a follow is announced).
func (tu *topicUI) add(ctx context.Context, owner topics.Owner, by, typed string) *reply {
	lg := lang.FromContext(ctx)
	w, existed, err := tu.topics.Add(ctx, owner, by, typed)
	if msg := tu.refused(ctx, owner, typed, err); msg != "" {
		return notice(msg)
	}
	q := blocks.EscapeTyped(w.Query)
	switch {
	case existed:
		return notice(lg.F("topic.already", "query", q))
	case owner.ChannelID != "":
		// The channel reads what it will hear in the organisation's
		// language, as its posts are.
		org := tu.follow.follows.Rules().OrgLanguage
		return &reply{ResponseType: slack.ResponseTypeInChannel, Text: org.F("topic.added_channel", "who", "<@"+by+">", "query", q)}
	}
	return notice(lg.F("topic.added_mine", "query", q))
}

// refused says, in the reader's language, why a watch of typed was not
// added, or "" when it was.
func (tu *topicUI) refused(ctx context.Context, owner topics.Owner, typed string, err error) string {
	lg := lang.FromContext(ctx)
	switch {
	case err == nil:
		return ""
	case errors.Is(err, topics.ErrEmpty):
		return lg.T("topic.empty")
	case errors.Is(err, topics.ErrTooLong):
		return lg.F("topic.too_long", "max", lg.Int(topics.MaxQueryRunes))
	case errors.Is(err, topics.ErrTooCommon):
		return lg.F("topic.too_common", "query", blocks.EscapeTyped(strings.Join(strings.Fields(typed), " ")))
	case errors.Is(err, topics.ErrTooBroad):
		return lg.F("topic.too_broad", "query", blocks.EscapeTyped(strings.Join(strings.Fields(typed), " ")))
	case errors.Is(err, store.ErrTopicLimit) && owner.ChannelID != "":
		return lg.F("topic.limit_channel", "max", lg.Int(tu.topics.Limits.PerChannel))
	case errors.Is(err, store.ErrTopicLimit):
		return lg.F("topic.limit_mine", "max", lg.Int(tu.topics.Limits.PerPerson))
	}
	return tu.follow.say(ctx, "add topic watch", err)
}

// list answers /minutes watching: owner's watches, each with Stop.
func (tu *topicUI) list(ctx context.Context, owner topics.Owner) *reply {
	ws, err := tu.topics.Of(ctx, owner)
	if err != nil {
		return notice(tu.follow.say(ctx, "list topic watches", err))
	}
	return ephemeral(blocks.TopicListMessage(blocks.TopicList{Lang: lang.FromContext(ctx), Channel: owner.ChannelID != "", Watches: topicRowsOf(ws)}))
}

func topicRowsOf(ws []store.TopicWatch) []blocks.TopicWatch {
	out := make([]blocks.TopicWatch, len(ws))
	for i, w := range ws {
		out[i] = blocks.TopicWatch{ID: w.ID, Query: w.Query}
	}
	return out
}

// homeTopics is the Home tab's topic section for user, or nil without a
// store; a store that cannot be read shows the section empty.
func (tu *topicUI) homeTopics(ctx context.Context, user string) *[]blocks.TopicWatch {
	if tu == nil || tu.topics == nil {
		return nil
	}
	ws, err := tu.topics.Of(ctx, topics.Owner{UserID: user})
	if err != nil {
		tu.follow.log.WarnContext(ctx, "app home: topic watches", "user", user, "error", err)
	}
	rows := topicRowsOf(ws)
	return &rows
}

// clickTopicStop stops the watch a Stop button names. The owner is where
// the click came from, never the button's value: the clicker's own watch
// from their DM or the Home tab, the channel's from a list shown in that
// channel, and then only by someone the channel rule lets change it.
func (c *clicks) clickTopicStop(ctx context.Context, in *interaction, value string) {
	lg := lang.FromContext(ctx)
	id, channel, ok := blocks.ParseTopicStopValue(value)
	tu := c.mins.topics
	if !ok || tu.topics == nil {
		c.tell(ctx, in, notice(staleButton(ctx)))
		return
	}
	owner := topics.Owner{UserID: in.User.ID}
	if channel {
		owner = topics.Owner{ChannelID: in.channelID()}
		if err := tu.follow.follows.MayChange(ctx, in.User.ID); err != nil {
			c.tell(ctx, in, notice(tu.follow.refusal(ctx, in.User.ID, err, "follow.admins_only", "follow.guest")))
			return
		}
	}
	w, stopped, err := tu.topics.Stop(ctx, owner, id)
	note := lg.T("topic.stop_gone")
	switch {
	case err != nil:
		note = c.say(ctx, "stop topic watch", err)
	case stopped:
		note = lg.F("topic.stopped", "query", blocks.EscapeTyped(w.Query))
	}
	if in.Container.Type == "view" {
		c.answerOnHome(ctx, in, homeState{note: note})
		return
	}
	r := tu.list(ctx, owner)
	r.Text, r.Blocks = note, append([]slack.Block{slack.NewSectionBlock(slack.NewTextBlockObject(slack.MarkdownType, note, false, false), nil, nil)}, r.Blocks...)
	c.redraw(ctx, in, r)
}

// openTopicModal opens the Home tab's "Watch a topic" modal.
func (c *clicks) openTopicModal(ctx context.Context, in *interaction) {
	if c.mins.topics.topics == nil {
		c.answerOnHome(ctx, in, homeState{note: lang.FromContext(ctx).T("follow.store_not_set")})
		return
	}
	if _, err := c.slack.OpenViewContext(ctx, in.TriggerID, blocks.TopicModal(lang.FromContext(ctx))); err != nil && !echoUnreadable(err) {
		c.log.ErrorContext(ctx, "topic modal: views.open failed", "user", in.User.ID, "error", err)
	}
}

// submitTopic adds the watch typed in the modal, for the person: within
// the ack, a local write. What was refused is shown under the input
// (response_action errors) with the words kept; an added watch closes the
// modal and the Home tab is drawn again with it.
func (s *Server) submitTopic(ctx context.Context, in *interaction) ack {
	lg := s.knownLang(in.User.ID)
	ctx = lang.NewContext(ctx, lg)
	typed := ""
	if v := in.View.State.Values[blocks.BlockTopicWords][blocks.ActionTopicWords].Value; v != nil {
		typed = *v
	}
	tu := s.clicks.mins.topics
	if tu.topics == nil {
		return slack.NewErrorsViewSubmissionResponse(map[string]string{blocks.BlockTopicWords: lg.T("follow.store_not_set")})
	}
	owner := topics.Owner{UserID: in.User.ID}
	w, existed, err := tu.topics.Add(ctx, owner, in.User.ID, typed)
	if msg := tu.refused(ctx, owner, typed, err); msg != "" {
		return slack.NewErrorsViewSubmissionResponse(map[string]string{blocks.BlockTopicWords: strippedForPlainText(msg)})
	}
	note := lg.F("topic.added_mine", "query", blocks.EscapeTyped(w.Query))
	if existed {
		note = lg.F("topic.already", "query", blocks.EscapeTyped(w.Query))
	}
	s.background(ctx, func(ctx context.Context) { s.home.publishHomeLogged(ctx, in.User.ID, homeState{note: note}) })
	return nil
}

// strippedForPlainText is a message for a plain-text place (a modal's
// input error): without the emoji code that opens it.
func strippedForPlainText(msg string) string {
	if strings.HasPrefix(msg, ":") {
		if i := strings.Index(msg[1:], ": "); i >= 0 {
			return msg[i+3:]
		}
	}
	return msg
}

// topicAuditTarget names a watch in the trail: whose, then its ID.
func topicAuditTarget(w store.TopicWatch) string {
	if w.ChannelID != "" {
		return w.ChannelID + "/" + w.ID
	}
	return w.UserID + "/" + w.ID
}
