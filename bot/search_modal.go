package bot

import (
	"context"
	"strings"
	"time"

	"github.com/slack-go/slack"

	"github.com/recordsbot/recordsbot/blocks"
	"github.com/recordsbot/recordsbot/internal/lang"
	"github.com/recordsbot/recordsbot/internal/metrics"
	"github.com/recordsbot/recordsbot/internal/slackapi"
	"github.com/recordsbot/recordsbot/minutes"
)

// The Search minutes modal, opened from the Home tab's button: the same
// search as /minutes search (minutesUI.searchView over the store's index),
// shown in a modal. A submission is answered in its ack with
// response_action "update" (results, the input kept) or "errors" (nothing
// typed); More pages with views.update.

// openSearchModal answers the Home tab's Search minutes button: views.open
// with the click's trigger_id, which Slack takes only within three seconds
// of the click and only once ("Triggers expire in three seconds" and "may
// only be used once", https://api.slack.com/docs/triggers). The modal is
// built without any I/O, so it goes at once.
func (c *clicks) openSearchModal(ctx context.Context, in *interaction) {
	if c.mins.search == nil {
		c.answerOnHome(ctx, in, homeState{note: lang.FromContext(ctx).T("search.no_store")})
		return
	}
	_, err := c.slack.OpenViewContext(ctx, in.TriggerID, blocks.SearchModal(blocks.SearchModalView{Lang: lang.FromContext(ctx)}))
	if err != nil && !echoUnreadable(err) {
		c.log.ErrorContext(ctx, "search modal: views.open failed", "user", in.User.ID, "error", err)
		lg := lang.FromContext(ctx)
		c.answerOnHome(ctx, in, homeState{note: lg.F("search.no_modal", "button", lg.T("home.search_minutes"))})
	}
}

// searchModal is the modal showing the search typed, results from offset
// on; a failure is told in it in words (userMessage), never as an error.
func (mu *minutesUI) searchModal(ctx context.Context, typed string, offset int) slack.ModalViewRequest {
	v := blocks.SearchModalView{Lang: lang.FromContext(ctx), Query: typed}
	if mu.search == nil {
		v.Note = v.Lang.T("search.no_store")
		return blocks.SearchModal(v)
	}
	results, err := mu.searchView(ctx, minutes.ParseQuery(typed), strings.TrimSpace(typed), offset)
	if err != nil {
		v.Note = mu.say(ctx, "search minutes", err)
	} else {
		v.Results = &results
	}
	return blocks.SearchModal(v)
}

// updateSearchModal shows view in the modal the click came from, with the
// hash of the version clicked: when another version landed since (a new
// search submitted while More was answered), Slack answers hash_conflict
// ("Error returned when the provided hash doesn't match the current stored
// value"; the hash "represents view state to protect against possible race
// conditions", https://api.slack.com/methods/views.update) and the newer
// version stays, as it should: it answers what the person did last.
func (c *clicks) updateSearchModal(ctx context.Context, in *interaction, view slack.ModalViewRequest) {
	_, err := c.slack.UpdateViewContext(ctx, view, "", in.View.Hash, in.View.ID)
	switch {
	case err == nil, echoUnreadable(err):
	case slackapi.ErrorCode(err) == "hash_conflict":
		c.log.InfoContext(ctx, "search modal: a newer version is showing; this page is dropped", "user", in.User.ID)
	default:
		c.log.ErrorContext(ctx, "search modal: views.update failed", "user", in.User.ID, "error", err)
	}
}

// noteInSearchModal shows note, the answer to a click in a modal, in
// place of the results, keeping what was searched for.
func (c *clicks) noteInSearchModal(ctx context.Context, in *interaction, note string) {
	c.updateSearchModal(ctx, in, blocks.SearchModal(blocks.SearchModalView{Query: typedIn(in), Note: note}))
}

// typedIn is what the view submitted or clicked in holds in the search
// input.
func typedIn(in *interaction) string {
	if v := in.View.State.Values[blocks.BlockSearchQuery][blocks.ActionSearchQuery].Value; v != nil {
		return *v
	}
	return ""
}

// dispatchViewSubmission answers a modal's submit button. Slack waits 3 s
// for the ack ("your app must respond within 3 seconds",
// https://api.slack.com/interactivity/handling#acknowledgment_response)
// and the ack is the answer: response_action "errors" puts a message under
// the input, "update" replaces the modal
// (https://docs.slack.dev/surfaces/modals#interactions). The search runs
// within the ack budget, like a slash command; a slower one is answered
// "Searching…" and its results follow with views.update.
func (s *Server) dispatchViewSubmission(ctx context.Context, in *interaction, start time.Time) ack {
	if in.View.CallbackID == blocks.CallbackTopicAdd {
		s.deps.Metrics.Request(metrics.Interaction, blocks.CallbackTopicAdd, "ok")
		return s.submitTopic(ctx, in) // bot/commands_topics.go
	}
	if in.View.CallbackID != blocks.CallbackSearch {
		// Not a modal of this version of the bot: an empty 200 closes it.
		s.log.InfoContext(ctx, "view_submission of an unknown modal", "callback_id", in.View.CallbackID)
		s.deps.Metrics.Request(metrics.Interaction, "unknown", "ignored")
		return nil
	}
	typed := typedIn(in)
	lg := s.knownLang(in.User.ID)
	ctx = lang.NewContext(ctx, lg)
	if minutes.QueryEmpty(minutes.ParseQuery(typed)) {
		s.deps.Metrics.Request(metrics.Interaction, blocks.CallbackSearch, "invalid")
		return slack.NewErrorsViewSubmissionResponse(map[string]string{blocks.BlockSearchQuery: lg.T("search.blank")})
	}
	release, ok := s.admit(ctx, metrics.Interaction)
	if !ok {
		s.deps.Metrics.Request(metrics.Interaction, blocks.CallbackSearch, "busy")
		return slack.NewUpdateViewSubmissionResponse(ptr(blocks.SearchModal(blocks.SearchModalView{Lang: lg, Query: typed, Note: lg.T("msg.busy")})))
	}
	work := func(ctx context.Context) slack.ModalViewRequest {
		return s.clicks.mins.searchModal(s.reader(ctx, in.User.ID), typed, 0)
	}
	failed := func() slack.ModalViewRequest {
		return blocks.SearchModal(blocks.SearchModalView{Lang: lg, Query: typed, Note: lg.T("err.internal")})
	}
	acked := make(chan time.Time, 1)
	view, inTime := budgeted(s, ctx, release, work, failed, func(ctx context.Context, view slack.ModalViewRequest) {
		// The ack puts "Searching…" in the modal when Slack receives it;
		// the results replace it. Sent before Slack has the ack, they
		// would be overwritten by it, so they wait for it to have left a
		// while ago. No hash: the ack's version has one Slack never tells
		// the bot.
		select {
		case <-time.After(time.Until((<-acked).Add(searchAckSettle))):
		case <-ctx.Done():
			return
		}
		late := *in
		late.View.Hash = ""
		s.clicks.updateSearchModal(ctx, &late, view)
		s.deps.Metrics.Finished(metrics.Interaction, start)
	})
	acked <- time.Now()
	s.deps.Metrics.Acked(metrics.Interaction, start)
	if !inTime {
		s.deps.Metrics.Request(metrics.Interaction, blocks.CallbackSearch, "deferred")
		view = blocks.SearchModal(blocks.SearchModalView{Lang: lg, Query: typed, Note: lg.T("search.searching")})
	} else {
		s.deps.Metrics.Request(metrics.Interaction, blocks.CallbackSearch, "inline")
		s.deps.Metrics.Finished(metrics.Interaction, start)
	}
	return slack.NewUpdateViewSubmissionResponse(&view)
}

// searchAckSettle is how long after a "Searching…" ack left its results
// wait, for Slack to have shown the ack first.
const searchAckSettle = time.Second

func ptr[T any](v T) *T { return &v }
