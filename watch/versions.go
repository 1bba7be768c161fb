package watch

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/slack-go/slack"

	"github.com/recordsbot/recordsbot/apiclient"
	"github.com/recordsbot/recordsbot/audit"
	"github.com/recordsbot/recordsbot/blocks"
	"github.com/recordsbot/recordsbot/internal/lang"
	"github.com/recordsbot/recordsbot/internal/once"
	"github.com/recordsbot/recordsbot/internal/slackapi"
	"github.com/recordsbot/recordsbot/minutes"
	"github.com/recordsbot/recordsbot/minutes/diff"
	"github.com/recordsbot/recordsbot/store"
)

// stateVersionsSince is how far the edits pass has read the versions kept.
const stateVersionsSince = "versions/since"

// versionsBatch bounds the versions one poll looks at.
const versionsBatch = 200

// approvalChanges is how many places the approval of meetingID's minutes
// changed of the draft (0: as drafted), or -1 when no draft was kept to
// compare with.
func (p *poll) approvalChanges(ctx context.Context, meetingID string) int {
	vs, err := p.deps.Store.MinutesVersions(ctx, meetingID)
	if err != nil {
		p.log.WarnContext(ctx, "watch: minutes versions not read; the approval reply says nothing of changes", "meeting", meetingID, "error", err)
		return -1
	}
	r := minutes.RevisionsOf(vs)
	if r.Draft.IsZero() {
		return -1
	}
	return r.Changes
}

// edits tells of minutes changed after their approval, once each: an
// entry in the audit trail (the old and the new hash, so `audit verify`
// covers it), a post in each channel following the committee that hears
// approvals, and a DM to each admin (Config.Admins), each with the
// comparison. It reads the versions kept since its last pass, whoever
// read them (the watcher, a page, a command); drafts that change are not
// edits: drafts change. The mark moves only past versions whose posts all
// went out.
func (p *poll) edits(ctx context.Context) error {
	since, first, err := p.versionsSince(ctx)
	if err != nil {
		return err
	}
	vs, err := p.deps.Store.NewMinutesVersions(ctx, since, versionsBatch)
	if err != nil {
		return err
	}
	mark := since
	var errs []error
	for _, v := range vs {
		done, err := p.edit(ctx, v)
		if err != nil {
			errs = append(errs, err)
		}
		if !done {
			break
		}
		mark = v.FirstSeen
	}
	if settled := p.now.Add(-topicSettle); mark.After(settled) {
		mark = settled
	}
	if first || mark.After(since) {
		errs = append(errs, p.deps.Store.SetState(ctx, stateVersionsSince, strconv.FormatInt(mark.UnixMilli(), 10)))
	}
	return errors.Join(errs...)
}

// versionsSince is the edits pass's mark; on the first pass (first),
// now, kept at once: versions kept before the watcher told of edits are
// history, not news.
func (p *poll) versionsSince(ctx context.Context) (since time.Time, first bool, err error) {
	v, ok, err := p.deps.Store.GetState(ctx, stateVersionsSince)
	if err != nil {
		return time.Time{}, false, err
	}
	if n, perr := strconv.ParseInt(v, 10, 64); ok && perr == nil {
		return time.UnixMilli(n).UTC(), false, nil
	}
	return p.now.Add(-topicSettle), true, nil
}

// edit tells of v when it is an edit after approval; done reports whether
// everything it needed went out (or nothing was needed).
func (p *poll) edit(ctx context.Context, v store.MinutesVersion) (done bool, err error) {
	if v.Status != string(apiclient.MinutesApproved) {
		return true, nil
	}
	vs, err := p.deps.Store.MinutesVersions(ctx, v.MeetingID)
	if err != nil {
		return false, err
	}
	var prev *store.MinutesVersion
	for i := range vs {
		if vs[i].N < v.N && vs[i].Status == string(apiclient.MinutesApproved) {
			prev = &vs[i]
		}
	}
	if prev == nil {
		return true, nil // the first approval: the announcements tell of it
	}
	if err := p.auditEdit(ctx, v, *prev); err != nil {
		return false, err
	}
	m, err := p.meetingOf(ctx, v.MeetingID)
	if err != nil {
		return false, err
	}
	cmpr, ok, err := minutes.CompareVersions(ctx, p.deps.Store, v.MeetingID, prev.N, v.N)
	if err != nil {
		return false, err
	}
	if !ok {
		return false, fmt.Errorf("versions %d and %d of %s: not kept", prev.N, v.N, v.MeetingID)
	}
	edit := blocks.MinutesEdit{Title: m.Name(), Committee: m.Committee, Changes: cmpr.Changes, Paragraphs: changedParagraphs(cmpr),
		URL: p.deps.Minutes.ChangesURL(v.MeetingID, prev.N, v.N)}
	done = true
	for _, to := range p.editAudience(ctx, m) {
		edit.Lang, edit.Admin = to.lang, to.admin
		msg := blocks.MinutesEditMessage(edit)
		key := "edited/" + to.id + "/" + v.MeetingID + "/" + strconv.Itoa(v.N)
		dest := to.id
		o, _ := p.once(ctx, once.Work{Key: key, Conversation: p.conversationOf(dest),
			Post: func(ctx context.Context) (string, error) {
				_, ts, err := p.deps.Slack.PostMessageContext(ctx, dest, slack.MsgOptionText(msg.Text, false), slack.MsgOptionBlocks(msg.Blocks...),
					slack.MsgOptionMetadata(blocks.MinutesEditMetadata(key, v.MeetingID)))
				return ts, err
			}})
		if o == once.Sent {
			p.sum.Edits++
		}
		done = done && o.Done()
	}
	return done, nil
}

// auditEdit records the edit in the audit trail once (the ledger's claim
// keeps a second pass, or a second replica, from recording it again).
func (p *poll) auditEdit(ctx context.Context, v, prev store.MinutesVersion) error {
	key := "edited-audit/" + v.MeetingID + "/" + strconv.Itoa(v.N)
	got, err := p.deps.Store.Claim(ctx, key, p.cfg.Owner, p.cfg.Lease)
	switch {
	case err != nil:
		return err
	case got == store.ClaimDone:
		return nil
	case got == store.ClaimBusy:
		return fmt.Errorf("audit the edit of %s: another worker holds it", v.MeetingID)
	case got == store.ClaimExpired:
		// An earlier worker stopped after claiming: it may have
		// appended the entry already.
		es, err := p.deps.Store.AuditOf(ctx, v.MeetingID, 50)
		if err != nil {
			return err
		}
		for _, e := range es {
			if e.Kind == audit.MinutesEdited && e.To == v.Hash {
				return p.deps.Store.Done(ctx, key, p.cfg.Owner, "")
			}
		}
	}
	e := audit.New(audit.WithSurface(ctx, audit.System), p.now, "recordsbot", audit.MinutesEdited, v.MeetingID)
	e.From, e.To = prev.Hash, v.Hash
	if _, err := p.deps.Store.AppendAudit(ctx, e); err != nil {
		err = fmt.Errorf("audit the edit of %s: %w", v.MeetingID, err)
		// Given back, the next poll tries again; kept, the claim holds
		// until its lease lapses, and the polls till then say another
		// worker holds it: say why.
		return errors.Join(err, p.deps.Store.Release(ctx, key, p.cfg.Owner))
	}
	return p.deps.Store.Done(ctx, key, p.cfg.Owner, "")
}

// meetingOf is meetingID's meeting: from the pages this poll read, else
// its own record.
func (p *poll) meetingOf(ctx context.Context, meetingID string) (apiclient.Meeting, error) {
	for _, mp := range p.pages {
		for _, m := range mp.Meetings {
			if m.ID == meetingID {
				return m, nil
			}
		}
	}
	m, err := p.deps.Minutes.Meeting(ctx, meetingID)
	if err != nil {
		return apiclient.Meeting{}, fmt.Errorf("meeting %s: %w", meetingID, err)
	}
	return *m, nil
}

// editTarget is one conversation told of an edit.
type editTarget struct {
	id    string // a channel, or an admin's user ID
	lang  lang.Lang
	admin bool
}

// editAudience is who hears of an edit to m's minutes: each channel
// following its committee that hears approvals, in its language, and each
// admin, in theirs.
func (p *poll) editAudience(ctx context.Context, m apiclient.Meeting) []editTarget {
	var out []editTarget
	follows, err := p.deps.Store.AllFollows(ctx)
	if err != nil {
		p.log.WarnContext(ctx, "watch: follows not read; the edit is told to admins only", "error", err)
	}
	for _, f := range follows {
		if f.CommitteeKey == minutes.CommitteeKey(m.Committee) && p.rules.Hears(f, store.HearApprovals) {
			out = append(out, editTarget{id: f.ChannelID, lang: p.rules.Language(f)})
		}
	}
	for _, id := range p.cfg.Admins {
		if t, ok := p.adminTarget(ctx, id); ok {
			out = append(out, t)
		}
	}
	return out
}

// adminTarget is the DM telling admin id of an edit, in their language,
// when they hold admin powers now: the action domain's Admin, which fails
// closed, so a guest listed in ADMIN_USER_IDS, or someone whose profile
// Slack could not give, is not told.
func (p *poll) adminTarget(ctx context.Context, id string) (editTarget, bool) {
	if p.deps.Actions == nil {
		return editTarget{}, false
	}
	m, err := p.deps.Actions.Who(ctx, id)
	if !p.deps.Actions.Admin(m) {
		p.log.InfoContext(ctx, "watch: an edit is not told to a listed admin without admin powers now (a guest, or no Slack profile)", "user", id, "error", err)
		return editTarget{}, false
	}
	return editTarget{id: id, lang: p.deps.Actions.ReaderLanguage(m.Locale), admin: true}, true
}

// conversationOf is a Work's Conversation for a post to id: a channel
// itself, or the DM a post to a user ID lands in.
func (p *poll) conversationOf(id string) func(context.Context) (string, error) {
	if !slackapi.IsUserID(id) {
		return toChannel(id)
	}
	return func(ctx context.Context) (string, error) {
		ch, _, _, err := p.deps.Slack.OpenConversationContext(ctx, &slack.OpenConversationParameters{Users: []string{id}})
		if err != nil {
			return "", fmt.Errorf("open DM with %s: %w", id, err)
		}
		return ch.ID, nil
	}
}

// changedParagraphs are the comparison's changed paragraphs as blocks
// draws them.
func changedParagraphs(c diff.Comparison) [][]blocks.ChangeRun {
	var out [][]blocks.ChangeRun
	for _, para := range c.Paragraphs {
		if !para.Changed {
			continue
		}
		var runs []blocks.ChangeRun
		for _, r := range para.Runs {
			runs = append(runs, blocks.ChangeRun{Added: r.Kind == diff.Added, Removed: r.Kind == diff.Removed, Text: r.Text})
		}
		out = append(out, runs)
	}
	return out
}
