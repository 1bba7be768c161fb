package blocks

import (
	"strconv"
	"strings"

	"github.com/slack-go/slack"

	"github.com/recordsbot/recordsbot/internal/lang"
)

// ActionAuditMore is the Home tab's "Older changes" button under Recent
// changes; its value is the cursor of the next page (decimal).
const ActionAuditMore = "home:audit_more"

// RecentChanges is the Home tab's Recent changes section, which only
// admins get: a page of the audit trail, newest first.
type RecentChanges struct {
	Lang  lang.Lang
	Lines []AuditLine // newest first
	// More, when not 0, adds "Older changes" (ActionAuditMore) with it.
	More int64
	// Error, when set, is said instead of the lines (mrkdwn written by
	// the bot).
	Error string
}

// recentChangesBlocks is the section: a divider, the header, the lines
// (or the error, or that there are none) and the button for older ones;
// nothing when rc is nil.
func recentChangesBlocks(rc *RecentChanges) []slack.Block {
	if rc == nil {
		return nil
	}
	l := rc.Lang
	body := l.T("audit.recent.empty")
	switch {
	case rc.Error != "":
		body = truncateMrkdwn(rc.Error, MaxSectionText)
	case len(rc.Lines) > 0:
		body = strings.Join(fitAudit(l, rc.Lines), "\n") // newest first
	}
	out := []slack.Block{slack.NewDividerBlock(), header(l.T("audit.recent.title")), section(body)}
	if rc.More > 0 {
		out = append(out, slack.NewActionBlock("", button(ActionAuditMore, strconv.FormatInt(rc.More, 10), l.T("audit.recent.more"))))
	}
	return out
}
