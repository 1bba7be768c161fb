package blocks

import (
	"slices"
	"strings"
	"time"

	"github.com/slack-go/slack"

	"github.com/recordsbot/recordsbot/audit"
	"github.com/recordsbot/recordsbot/internal/lang"
)

// AuditLine is one entry of the audit trail as a reader sees it (see
// package audit): plain values, escaped here.
type AuditLine struct {
	At       time.Time
	Actor    string // Slack user ID; "" for recordsbot's own entries
	Surface  string // audit.Surface
	Kind     string // audit.Kind
	Target   string
	From, To string
	Outcome  string
}

// MsgNotRecorded is what a person reads when their change could not be
// written to the audit trail (the database is down): it was not made.
func MsgNotRecorded(l lang.Lang) string { return l.T("audit.not_recorded") }

// History builds /actions history's answer: the trail of action id,
// titled with title (record text, escaped here; "" when the action is no
// longer in the records), oldest first, each line as auditText writes it;
// or a line saying nothing was recorded. Lines that do not fit Slack's
// section limit are left off the oldest end, and the foot says so.
func History(l lang.Lang, id, title string, lines []AuditLine) Message {
	name := "`" + Escape(id) + "`"
	if title != "" {
		name = "*" + Escape(title) + "* (" + name + ")"
	}
	head := l.F("audit.history.title", "action", name)
	body := l.T("audit.history.empty")
	if len(lines) > 0 {
		newest := slices.Clone(lines)
		slices.Reverse(newest)
		shown := fitAudit(l, newest)
		slices.Reverse(shown)
		body = strings.Join(shown, "\n")
	}
	blocks := []slack.Block{section(truncateMrkdwn(head, MaxSectionText)), section(body), contextLine(l.T("audit.history.foot"))}
	return Message{Text: truncateMrkdwn(head, MaxSectionText), Blocks: blocks}
}

// fitAudit is auditText of each of newestFirst, in its order, while they
// fit in a section one a line: when they do not all fit, the newest are
// kept.
func fitAudit(l lang.Lang, newestFirst []AuditLine) []string {
	out := make([]string, 0, len(newestFirst))
	size := 0
	for _, a := range newestFirst {
		s := auditText(l, a)
		if size+runes(s)+1 > MaxSectionText {
			break
		}
		size += runes(s) + 1
		out = append(out, s)
	}
	return out
}

// auditText is one entry: when (in the reader's time zone), who, what
// changed from what to what, where, and how it ended.
func auditText(l lang.Lang, a AuditLine) string {
	who := l.T("audit.by_recordsbot")
	if a.Actor != "" {
		who = "<@" + Escape(a.Actor) + ">"
	}
	change := "`" + Escape(a.Kind) + "` " + Escape(oneLine(a.Target))
	if a.From != "" || a.To != "" {
		change += ": " + Escape(oneLine(a.From)) + " → " + Escape(oneLine(a.To))
	}
	return l.F("audit.line", "time", dateTime(l, a.At), "who", who, "change", change,
		"surface", l.T(surfaceKey(a.Surface)), "outcome", outcomeText(l, a.Outcome))
}

// surfaceKey is the catalogue's word for where a change was asked for.
func surfaceKey(s string) lang.Key {
	if k, ok := surfaces[audit.Surface(s)]; ok {
		return k
	}
	return "audit.surface.unknown"
}

// surfaces are the catalogue's words for where a change was asked for,
// outcomes for the trail's outcomes, and reasons for its refusals' reasons
// (audit.Refused).
var (
	surfaces = map[audit.Surface]lang.Key{
		audit.Command: "audit.surface.command", audit.Reply: "audit.surface.reply",
		audit.Reminder: "audit.surface.reminder", audit.Home: "audit.surface.home",
		audit.Digest: "audit.surface.digest", audit.System: "audit.surface.recordsbot",
	}
	outcomes = map[audit.Outcome]lang.Key{
		audit.Requested: "audit.outcome.requested", audit.Done: "audit.outcome.done",
		audit.Unchanged: "audit.outcome.unchanged", audit.Unconfirmed: "audit.outcome.unconfirmed",
		audit.Failed: "audit.outcome.failed",
	}
	reasons = map[string]lang.Key{
		audit.ReasonNotYours: "audit.reason.not_yours", audit.ReasonStale: "audit.reason.stale",
		audit.ReasonRecords: "audit.reason.records", audit.ReasonGone: "audit.reason.gone",
	}
)

// outcomeText is how an entry ended, in l: the trail stores a code
// ("done", "refused: stale button"), and an outcome it does not know (a
// newer version's) is shown as stored, escaped.
func outcomeText(l lang.Lang, outcome string) string {
	if k, ok := outcomes[audit.Outcome(outcome)]; ok {
		return l.T(k)
	}
	if reason, ok := strings.CutPrefix(outcome, string(audit.Refused(""))); ok {
		if k, ok := reasons[reason]; ok {
			return l.F("audit.outcome.refused", "reason", l.T(k))
		}
	}
	return Escape(outcome)
}
