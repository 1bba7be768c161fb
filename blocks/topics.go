package blocks

import (
	"cmp"
	"strings"
	"time"

	"github.com/slack-go/slack"

	"github.com/recordsbot/recordsbot/internal/lang"
	"github.com/recordsbot/recordsbot/topics"
)

// ActionTopicStop is the Stop button beside a topic watch (in /minutes
// watching and on the Home tab); its value is TopicStopValue or
// ChannelTopicStopValue.
const ActionTopicStop = "topic:stop"

// ActionTopicAdd is the Home tab's "Watch a topic" button, which opens the
// modal CallbackTopicAdd.
const ActionTopicAdd = "topic:add"

// The topic modal: its callback and its one input.
const (
	CallbackTopicAdd = "topic_add"
	BlockTopicWords  = "topic_words"
	ActionTopicWords = "topic_words_input"
)

// EventTopicMatched marks a topic watch's post; event_payload.key is its
// ledger key (see AnnouncementMetadata for why).
const EventTopicMatched = "recordsbot_topic_matched"

// topicItemsMax bounds the agenda items one topic post lists.
const topicItemsMax = 10

// TopicItem is an agenda item a topic matched.
type TopicItem struct {
	Number, Title string
}

// TopicMatch is one post telling a watch's owner that its words came up at
// a meeting: on its agenda (Items) or in its minutes (Minutes, with a
// Snippet around the words).
type TopicMatch struct {
	Lang        lang.Lang
	Query       string // the watch's words as typed
	Committee   string
	Meeting     string // the meeting's title
	Date        time.Time
	DateHasTime bool
	Items       []TopicItem
	Minutes     bool
	Draft       bool
	Snippet     []SearchPart
	// MinutesURL is where the minutes are read; CalendarURL adds an
	// upcoming meeting to a calendar. "" leaves the button off.
	MinutesURL, CalendarURL string
}

// TopicMatchMessage builds a topic post: a line saying which words came up
// where ("“library levy” is on the agenda of …" or "… comes up in the
// minutes of …"), committee · date (a draft marked), the matching agenda
// items or the snippet with the words in bold, and the links (Read the
// minutes; Add to calendar).
func TopicMatchMessage(m TopicMatch) Message {
	lg := m.Lang
	q := EscapeTyped(oneLine(truncate(m.Query, 200)))
	meeting := cmp.Or(inline(m.Meeting, 150), lg.T("minutes.untitled"))
	key := lang.Key("topic.on_agenda")
	if m.Minutes {
		key = "topic.in_minutes"
	}
	lines := []string{lg.F(key, "query", q, "meeting", meeting)}
	var meta []string
	if c := inline(m.Committee, 80); c != "" {
		meta = append(meta, c)
	}
	if d := Date(lg, m.Date, m.DateHasTime); d != "" {
		meta = append(meta, d)
	}
	if m.Minutes && m.Draft {
		meta = append(meta, lg.T("home.draft"))
	}
	if len(meta) > 0 {
		lines = append(lines, strings.Join(meta, " · "))
	}
	for i, it := range m.Items {
		if i == topicItemsMax {
			lines = append(lines, lg.N("meeting.more_items", len(m.Items)-i))
			break
		}
		item := inline(it.Title, 200)
		if n := inline(it.Number, 10); n != "" {
			item = n + ". " + item
		}
		lines = append(lines, "• "+item)
	}
	if s := Snippet(m.Snippet, 600); s != "" {
		lines = append(lines, "> "+s)
	}
	out := []slack.Block{section(truncateMrkdwn(strings.Join(lines, "\n"), MaxSectionText))}
	var buttons []slack.BlockElement
	if safeURL(m.MinutesURL, MaxURL) {
		b := button(ActionOpenLink, "", lg.T("minutes.read_full"))
		b.URL = m.MinutesURL
		buttons = append(buttons, b)
	}
	if safeURL(m.CalendarURL, MaxURL) {
		b := button(ActionOpenLink, "", lg.T("calendar.add"))
		b.URL = m.CalendarURL
		buttons = append(buttons, b)
	}
	if len(buttons) > 0 {
		out = append(out, slack.NewActionBlock("", buttons...))
	}
	out = append(out, contextLine(lg.T("topic.why")))
	return Message{Text: lines[0], Blocks: out}
}

// TopicMetadata is a topic post's message metadata: its ledger key and the
// meeting.
func TopicMetadata(key, meetingID string) slack.SlackMetadata {
	return slack.SlackMetadata{EventType: EventTopicMatched, EventPayload: map[string]any{"key": key, "meeting_id": meetingID}}
}

// TopicWatch is a watch as a list shows it.
type TopicWatch struct {
	ID, Query string
}

// TopicList is the answer to /minutes watching: the watches of a person
// (Channel false) or a channel, each with Stop (ActionTopicStop).
type TopicList struct {
	Lang    lang.Lang
	Channel bool
	Watches []TopicWatch
}

// TopicListMessage lists the watches with their Stop buttons, or says
// there are none and how to start one.
func TopicListMessage(l TopicList) Message {
	lg := l.Lang
	if len(l.Watches) == 0 {
		if l.Channel {
			return Notice(lg.T("topic.none_channel"))
		}
		return Notice(lg.T("topic.none_mine"))
	}
	head := lg.T("topic.list_mine")
	if l.Channel {
		head = lg.T("topic.list_channel")
	}
	out := []slack.Block{section(head)}
	stop := TopicStopValue
	if l.Channel {
		stop = ChannelTopicStopValue
	}
	out = append(out, topicRows(lg, l.Watches, stop)...)
	out = append(out, contextLine(lg.T("topic.list_hint")))
	return Message{Text: head, Blocks: out}
}

// topicRows are one section per watch, its words in the language's
// quotes and Stop, whose value is stop of the watch's ID.
func topicRows(lg lang.Lang, watches []TopicWatch, stop func(id string) string) []slack.Block {
	var out []slack.Block
	for _, w := range watches {
		s := section(lg.F("topic.list_item", "query", EscapeTyped(oneLine(truncate(w.Query, 200)))))
		s.Accessory = slack.NewAccessory(button(ActionTopicStop, stop(w.ID), lg.T("topic.stop")))
		out = append(out, s)
	}
	return out
}

// TopicStopValue is the Stop button's value for a person's watch: "u:"
// then the watch ID; ChannelTopicStopValue ("c:") is the one for a
// channel's. The owner itself comes from the click (the channel it was
// in, the person who clicked), never from the value.
func TopicStopValue(id string) string { return "u:" + id }

// ChannelTopicStopValue is the Stop button's value for a channel's watch;
// see TopicStopValue.
func ChannelTopicStopValue(id string) string { return "c:" + id }

// ParseTopicStopValue reads a Stop button's value.
func ParseTopicStopValue(v string) (id string, channel, ok bool) {
	kind, id, found := strings.Cut(v, ":")
	if !found || id == "" || (kind != "c" && kind != "u") {
		return "", false, false
	}
	return id, kind == "c", true
}

// TopicModal is the Home tab's "Watch a topic" modal: one input for the
// words, with the query language as its hint; errs, when set, is shown
// under the input by the caller (response_action errors).
func TopicModal(lg lang.Lang) slack.ModalViewRequest {
	words := slack.NewPlainTextInputBlockElement(slack.NewTextBlockObject(slack.PlainTextType, lg.T("topic.modal_placeholder"), false, false), ActionTopicWords)
	words.MaxLength = topics.MaxQueryRunes
	input := slack.NewInputBlock(BlockTopicWords, slack.NewTextBlockObject(slack.PlainTextType, lg.T("topic.modal_label"), false, false),
		slack.NewTextBlockObject(slack.PlainTextType, lg.T("topic.modal_hint"), false, false), words)
	return slack.ModalViewRequest{
		Type:       slack.VTModal,
		CallbackID: CallbackTopicAdd,
		Title:      slack.NewTextBlockObject(slack.PlainTextType, truncate(lg.T("topic.modal_title"), MaxModalTitle), false, false),
		Submit:     slack.NewTextBlockObject(slack.PlainTextType, truncate(lg.T("topic.modal_submit"), MaxModalButton), false, false),
		Close:      slack.NewTextBlockObject(slack.PlainTextType, truncate(lg.T("topic.modal_close"), MaxModalButton), false, false),
		Blocks:     slack.Blocks{BlockSet: []slack.Block{input}},
	}
}

// HomeTopics is the Home tab's topic section: the person's watches with
// Stop, and "Watch a topic" (ActionTopicAdd).
func HomeTopics(lg lang.Lang, watches []TopicWatch) []slack.Block {
	out := []slack.Block{header(lg.T("topic.home_header"))}
	if len(watches) == 0 {
		out = append(out, section(lg.T("topic.home_none")))
	}
	out = append(out, topicRows(lg, watches, TopicStopValue)...)
	return append(out, slack.NewActionBlock("", button(ActionTopicAdd, "", lg.T("topic.home_add"))))
}
