package bot

import (
	"context"
	"strconv"

	"github.com/recordsbot/recordsbot/actions"
	"github.com/recordsbot/recordsbot/blocks"
)

// recentChangesPage is how many entries a page of the Home tab's Recent
// changes shows.
const recentChangesPage = 10

// recentChanges is the Home tab's Recent changes for viewer me: a page of
// the audit trail, newest first, from the entry before before (0: the
// newest). Only admins get it (actions.Service.Admin, which fails closed
// while Slack cannot say they are not a guest); nil for everyone else and
// without a trail.
func (h *homeUI) recentChanges(ctx context.Context, me actions.Member, before int64) *blocks.RecentChanges {
	if h.trail == nil || !h.actions.Admin(me) {
		return nil
	}
	rc := &blocks.RecentChanges{Lang: h.actions.ReaderLanguage(me.Locale)}
	page, next, err := h.trail.AuditPage(ctx, before, recentChangesPage)
	if err != nil {
		h.say(ctx, "home recent changes", err)
		rc.Error = rc.Lang.T("audit.recent.down")
		return rc
	}
	rc.Lines, rc.More = auditLines(page), next
	return rc
}

// clickAuditMore is the "Older changes" button: the Home tab again, with
// the page of Recent changes after the one shown.
func (c *clicks) clickAuditMore(ctx context.Context, in *interaction, value string) {
	before, err := strconv.ParseInt(value, 10, 64)
	if err != nil {
		c.tell(ctx, in, notice(staleButton(ctx)))
		return
	}
	c.answerOnHome(ctx, in, homeState{auditBefore: before})
}
