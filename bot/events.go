package bot

import (
	"context"
	"encoding/json"
	"sync"
	"time"

	"github.com/slack-go/slack/slackevents"

	"github.com/recordsbot/recordsbot/internal/metrics"
)

// dispatchEvent handles an Events API delivery: url_verification is
// answered with its challenge; callbacks are acknowledged at once and
// handled after, because Slack wants the 200 within 3 s and retries
// otherwise. A delivery seen before (a retry) is acknowledged and dropped.
func (s *Server) dispatchEvent(ctx context.Context, body []byte, retry int) ack {
	ev, err := slackevents.ParseEvent(json.RawMessage(body), slackevents.OptionNoVerifyToken())
	if err != nil {
		s.log.WarnContext(ctx, "event: unparsable", "error", err)
		s.deps.Metrics.Request(metrics.Event, "malformed", "error")
		return nil
	}
	switch ev.Type {
	case slackevents.URLVerification:
		if v, ok := ev.Data.(*slackevents.EventsAPIURLVerificationEvent); ok {
			return map[string]string{"challenge": v.Challenge}
		}
		return nil
	case slackevents.CallbackEvent:
	default:
		s.log.DebugContext(ctx, "event ignored", "type", ev.Type)
		return nil
	}
	var outer struct {
		EventID string `json:"event_id"`
		// Event holds what slack-go's LinkSharedEvent leaves out.
		Event unfurlTarget `json:"event"`
	}
	if err := json.Unmarshal(body, &outer); err != nil {
		// ParseEvent accepted the body, so it is JSON: a field of another
		// type is left empty and the rest read (encoding/json goes on past
		// a type mismatch); without its ID the delivery is not deduped.
		s.log.WarnContext(ctx, "event: envelope fields unreadable", "type", ev.InnerEvent.Type, "error", err)
	}
	if !s.seen.first(outer.EventID, s.deps.Now()) {
		s.log.InfoContext(ctx, "event: duplicate delivery dropped", "event_id", outer.EventID, "retry", retry)
		s.deps.Metrics.Request(metrics.Event, ev.InnerEvent.Type, "duplicate")
		return nil
	}
	// An event past the bound on work in flight is dropped (there is no
	// one to tell): the Home tab is drawn again when next opened, and a
	// link without its preview is still a link.
	switch inner := ev.InnerEvent.Data.(type) {
	case *slackevents.AppHomeOpenedEvent:
		if inner.Tab != "home" {
			return nil
		}
		release, ok := s.admit(ctx, metrics.Event)
		if !ok {
			s.deps.Metrics.Request(metrics.Event, ev.InnerEvent.Type, "busy")
			return nil
		}
		s.background(ctx, func(ctx context.Context) {
			defer release()
			s.home.publishHomeLogged(s.reader(ctx, inner.User), inner.User, homeState{})
		})
	case *slackevents.LinkSharedEvent:
		release, ok := s.admit(ctx, metrics.Event)
		if !ok {
			s.deps.Metrics.Request(metrics.Event, ev.InnerEvent.Type, "busy")
			return nil
		}
		s.background(ctx, func(ctx context.Context) { defer release(); s.unfurls.unfurl(ctx, inner, outer.Event) })
	case *slackevents.EntityDetailsRequestedEvent:
		// A click on a Work Object card: the flexpane, for the clicker
		// (bot/workobjects.go).
		release, ok := s.admit(ctx, metrics.Event)
		if !ok {
			s.deps.Metrics.Request(metrics.Event, ev.InnerEvent.Type, "busy")
			return nil
		}
		s.background(ctx, func(ctx context.Context) {
			defer release()
			s.panels.open(s.reader(ctx, inner.User), inner)
		})
	default:
		s.log.DebugContext(ctx, "event ignored", "type", ev.InnerEvent.Type)
		s.deps.Metrics.Request(metrics.Event, "other", "ignored")
		return nil
	}
	s.deps.Metrics.Request(metrics.Event, ev.InnerEvent.Type, "ok")
	return nil
}

// seenEvents remembers recent event IDs so a redelivered event does no work
// twice on this replica. (Across replicas the handlers are idempotent:
// publishing the same Home view or unfurl twice changes nothing.)
type seenEvents struct {
	mu   sync.Mutex
	seen map[string]time.Time
}

func (e *seenEvents) first(id string, now time.Time) bool {
	if id == "" {
		return true
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.seen == nil {
		e.seen = map[string]time.Time{}
	}
	if len(e.seen) > 10000 {
		for k, t := range e.seen {
			if now.Sub(t) > time.Hour {
				delete(e.seen, k)
			}
		}
		if len(e.seen) > 10000 {
			// A burst of distinct events: forget them all rather than
			// grow without bound. The worst case is one redelivery done
			// twice, which the handlers tolerate.
			clear(e.seen)
		}
	}
	if _, dup := e.seen[id]; dup {
		return false
	}
	e.seen[id] = now
	return true
}

// unfurlTarget is how Slack addresses the unfurl of a link_shared event
// besides channel and message_ts.
type unfurlTarget struct {
	// Source is "conversations_history" for a posted message and
	// "composer" for a message still being written. A composer's channel
	// is "COMPOSER" and its message_ts a UUID: they name no message, so
	// its unfurl must be addressed by UnfurlID and Source.
	Source   string `json:"source"`
	UnfurlID string `json:"unfurl_id"`
}

// unfurl answers link_shared for links to minutes (the bot's public pages
// and the records' own minutes URLs) and, with Work Objects, to actions:
// as Work Object cards when the workspace has them (Config.WorkObjects),
// else as classic attachments (blocks.UnfurlMinutes). Links to anything
// else, and to minutes that are not visible, are left for Slack to show
// as it would; when none is left, chat.unfurl is not called at all.
func (f *unfurler) unfurl(ctx context.Context, ev *slackevents.LinkSharedEvent, target unfurlTarget) {
	f.send(ctx, ev, target, f.cards(ctx, ev))
}
