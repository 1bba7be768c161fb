package demo

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/recordsbot/recordsbot/apiclient/recordsfake"
	"github.com/recordsbot/recordsbot/internal/words"
	"github.com/recordsbot/recordsbot/minutes"
	"github.com/recordsbot/recordsbot/store"
	"github.com/recordsbot/recordsbot/watch"
)

// Minutes statuses of Records API v1 that the demo's publish and approve
// move between. Only the last two are visible to the bot.
const (
	statusApproved       = "approved"
	statusPublishedDraft = "published_draft"
)

// publish makes the demo's records service publish, as a draft, the
// minutes of the committee's latest meeting held whose minutes are not
// visible yet (a draft, in review, or none): what a secretary does in the
// records system, which the bot learns of only by polling.
func (c *console) publish(ctx context.Context, typed string) error {
	committee, err := c.committee(typed, "publish")
	if err != nil {
		return err
	}
	now := time.Now()
	minutes := map[string]recordsfake.Minutes{}
	for _, m := range c.env.records.Minutes() {
		minutes[m.MeetingID] = m
	}
	for _, m := range c.env.records.Meetings() { // newest first
		if m.Committee != committee || m.Date.After(now) {
			continue
		}
		mins, ok := minutes[m.ID]
		if ok && (mins.Status == statusApproved || mins.Status == statusPublishedDraft) {
			continue
		}
		if !ok {
			mins = recordsfake.Minutes{MeetingID: m.ID, Body: fmt.Sprintf("# %s\n\n%s", m.Title, draftNote)}
		}
		mins.Status, mins.UpdatedAt = statusPublishedDraft, now
		c.env.records.SetMinutes(mins)
		c.printf("%s\n\n", c.r.p.grey(fmt.Sprintf("The records service now shows the minutes of %s (%s) as a published draft. "+
			"recordsbot hears of it when its watcher next polls: type watch.", m.Title, c.r.p.bold(m.Date.In(c.opts.Location).Format("Jan 2, 2006")))))
		return nil
	}
	return fmt.Errorf("every %s meeting held so far already has its minutes published; approve %s approves its latest draft", committee, strings.ToLower(committee))
}

// approve makes the demo's records service approve the committee's latest
// published draft: its status becomes approved and its draft note goes.
func (c *console) approve(ctx context.Context, typed string) error {
	committee, err := c.committee(typed, "approve")
	if err != nil {
		return err
	}
	meetings := map[string]recordsfake.Meeting{}
	for _, m := range c.env.records.Meetings() {
		meetings[m.ID] = m
	}
	var latest *recordsfake.Minutes
	for _, mins := range c.env.records.Minutes() {
		m, ok := meetings[mins.MeetingID]
		if !ok || m.Committee != committee || mins.Status != statusPublishedDraft {
			continue
		}
		if latest == nil || m.Date.After(meetings[latest.MeetingID].Date) {
			latest = &mins
		}
	}
	if latest == nil {
		return fmt.Errorf("%s has no published draft to approve; publish %s publishes one", committee, strings.ToLower(committee))
	}
	m := meetings[latest.MeetingID]
	latest.Status, latest.UpdatedAt = statusApproved, time.Now()
	latest.Body = strings.Replace(latest.Body, draftNote, "", 1)
	c.env.records.SetMinutes(*latest)
	c.printf("%s\n\n", c.r.p.grey(fmt.Sprintf("The records service now shows the minutes of %s (%s) as approved. "+
		"recordsbot hears of it when its watcher next polls: type watch.", m.Title, c.r.p.bold(m.Date.In(c.opts.Location).Format("Jan 2, 2006")))))
	return nil
}

// assign makes the demo's records service record a new open action for
// the person named, from the latest meeting held, due in two weeks: what
// a secretary does when typing up the minutes. The watcher DMs the
// assignee about it on its next poll, unless they turned that off.
func (c *console) assign(args string) error {
	name, title, _ := strings.Cut(strings.TrimSpace(args), " ")
	title = strings.TrimSpace(title)
	if name == "" || title == "" {
		return errors.New("assign whom what? For example: assign bob Book the hall for the AGM")
	}
	p, err := c.person(name)
	if err != nil {
		return err
	}
	now := time.Now()
	var held *recordsfake.Meeting
	for _, m := range c.env.records.Meetings() { // newest first
		if !m.Date.After(now) {
			held = &m
			break
		}
	}
	if held == nil {
		return errors.New("the demo's records have no meeting held yet to assign an action from")
	}
	c.assigned++
	day := now.UTC().Truncate(24 * time.Hour)
	c.env.records.AddAction(recordsfake.Action{
		ID:    fmt.Sprintf("%s/new-%d", held.Reference, c.assigned),
		Title: title, Status: "open", AssigneeEmail: p.Email, AssigneeName: p.Name,
		MeetingID: held.ID, Deadline: day.AddDate(0, 0, 14), DateOnly: true, CreatedAt: now,
	})
	c.printf("%s\n\n", c.r.p.grey(fmt.Sprintf("The records service now has a new action for @%s from %s: “%s”. "+
		"recordsbot hears of it when its watcher next polls: type watch.", handle(p), held.Title, title)))
	return nil
}

// committee finds the committee typed among those of the demo's meetings,
// case-insensitively; a unique prefix is enough.
func (c *console) committee(typed, verb string) (string, error) {
	typed = strings.TrimSpace(typed)
	var names []string
	for _, m := range c.env.records.Meetings() {
		if !slices.Contains(names, m.Committee) {
			names = append(names, m.Committee)
		}
	}
	slices.Sort(names)
	if typed == "" {
		return "", fmt.Errorf("%s which committee? For example: %s finance (the committees: %s)", verb, verb, strings.Join(names, ", "))
	}
	var prefixed []string
	for _, n := range names {
		if strings.EqualFold(n, typed) {
			return n, nil
		}
		if strings.HasPrefix(strings.ToLower(n), strings.ToLower(typed)) {
			prefixed = append(prefixed, n)
		}
	}
	if len(prefixed) == 1 {
		return prefixed[0], nil
	}
	return "", fmt.Errorf("there is no committee %q in the demo; the committees are %s", typed, strings.Join(names, ", "))
}

// watch runs one poll of the watcher, as `recordsbot watch` does, and
// shows what it posted: announcements in #general, announcements updated
// in place with their thread replies, and new-assignment DMs.
func (c *console) watch(ctx context.Context) error {
	if err := c.polled(c.env.watch(ctx)); err != nil {
		return err
	}
	return c.settle(ctx, &screen{quiet: "(nothing new: the watcher announces minutes and DMs assignments once each)"})
}

// digest posts the committee's weekly digest in #general now, as the
// watcher does on the channel's day (DIGEST_DEFAULT, mon 09:00), making
// #general follow the committee first if it does not.
func (c *console) digest(ctx context.Context, typed string) error {
	committee, err := c.committee(typed, "digest")
	if err != nil {
		return err
	}
	if _, err := c.followInGeneral(ctx, committee); err != nil {
		return err
	}
	if err := c.polled(c.env.digest(ctx)); err != nil {
		return err
	}
	return c.settle(ctx, &screen{quiet: c.noDigest(ctx, committee)})
}

// noDigest says why digest posted nothing: the channel's own choice when
// it made one that keeps this digest away, else the once-a-week rule.
func (c *console) noDigest(ctx context.Context, committee string) string {
	key := minutes.CommitteeKey(committee)
	fs, err := c.env.store.FollowsInChannel(ctx, demoChannel)
	if err != nil {
		return "(no digest)"
	}
	i := slices.IndexFunc(fs, func(f store.Follow) bool { return f.CommitteeKey == key })
	d, err := c.env.store.Digest(ctx, demoChannel, key)
	// The follow rules the watcher applies: `digest off` unticks the box
	// (an off schedule of the channel's own is how it was kept before).
	if i >= 0 && (!demoRules.Hears(fs[i], store.HearDigest) || err == nil && !demoRules.HearsDigest(fs[i], d)) {
		return "(no digest: its Weekly digest box is unticked in /minutes following; ticking it brings it back)"
	}
	switch {
	case err != nil:
		return "(no digest)"
	case d.Schedule != nil:
		return fmt.Sprintf("(no digest: #general chose its own time, %s; /minutes follow %s digest goes back to the usual one)", d.Schedule, committee)
	}
	return "(no digest: #general had this week's already, once a week per committee)"
}

// brief posts the pre-meeting brief of the committee's next meeting in
// #general now, as the watcher does BRIEF_LEAD before it: it follows the
// committee first if #general does not, and polls with the lead reaching
// that meeting.
func (c *console) brief(ctx context.Context, typed string) error {
	committee, err := c.committee(typed, "brief")
	if err != nil {
		return err
	}
	now := time.Now()
	var next time.Time
	for _, m := range c.env.records.Meetings() {
		if m.Committee == committee && m.Date.After(now) && (next.IsZero() || m.Date.Before(next)) {
			next = m.Date
		}
	}
	if next.IsZero() {
		c.printf("%s has no meeting to come in the records: no brief.\n", committee)
		return nil
	}
	fs, err := c.followInGeneral(ctx, committee)
	if err != nil {
		return err
	}
	if err := c.polled(c.env.brief(ctx, next.Sub(now)+time.Minute)); err != nil {
		return err
	}
	quiet := "(no brief: #general has this meeting's already, once per meeting)"
	i := slices.IndexFunc(fs, func(f store.Follow) bool { return f.Committee == committee })
	if i >= 0 && !demoRules.Hears(fs[i], store.HearBriefs) {
		quiet = "(no brief: its Pre-meeting briefs box is unticked in /minutes following)"
	}
	return c.settle(ctx, &screen{quiet: quiet})
}

// followInGeneral makes #general follow committee, as /minutes follow
// typed there does, when it does not already; it returns #general's
// follows as they were before.
func (c *console) followInGeneral(ctx context.Context, committee string) ([]store.Follow, error) {
	follows, err := c.env.store.FollowsInChannel(ctx, demoChannel)
	if err != nil {
		return nil, fmt.Errorf("read follows: %w", err)
	}
	if !slices.ContainsFunc(follows, func(f store.Follow) bool { return f.Committee == committee }) {
		if err := c.slash(ctx, "/minutes", "follow "+committee); err != nil {
			return nil, err
		}
	}
	return follows, nil
}

// polled prints what a poll of the watcher did (pollReport) and returns
// its error, if any.
func (c *console) polled(sum watch.Summary, err error) error {
	c.printf("%s\n", c.r.p.grey(pollReport(sum, c.opts.Location)))
	if err != nil {
		return fmt.Errorf("watcher: %w", err)
	}
	return nil
}

// pollReport is what one poll of the watcher did, in the words of someone
// trying the bot rather than those of the job's log line (`recordsbot
// watch` prints sum.String(): meetings and pages read, counters). The
// first line says what was checked and how far back: the window is why one
// poll reads 16 meetings and the next 7 (a new follow reads the whole
// lookback; later polls only back to the oldest meeting still pending).
// The second says what was new, and is left out when nothing was: the
// screen says so then.
func pollReport(sum watch.Summary, loc *time.Location) string {
	if sum.Busy {
		return "The watcher did nothing: another poll was running."
	}
	actions := fmt.Sprintf("for new assignments among the %s still to do", words.Count(sum.Actions, "action", "actions"))
	var b strings.Builder
	switch {
	case sum.Since.IsZero() && sum.TopicWatches > 0:
		// Topic watches read the minutes the index holds, follow or not:
		// "looked for no minutes" would contradict the match below it.
		fmt.Fprintf(&b, "The watcher looked %s, and for the words of %s in newly published minutes and new agendas; no channel follows a committee, so it announced no minutes.",
			actions, words.Count(sum.TopicWatches, "topic watch", "topic watches"))
	case sum.Since.IsZero():
		fmt.Fprintf(&b, "The watcher looked %s; no channel follows a committee, so it looked for no minutes.", actions)
	default:
		fmt.Fprintf(&b, "The watcher looked for new or approved minutes in the %s dated %s or later, and %s.",
			words.Count(sum.Meetings, "meeting", "meetings"), sum.Since.In(loc).Format("Jan 2"), actions)
	}
	var news []string
	add := func(n int, one, many string) {
		if n > 0 {
			news = append(news, words.Count(n, one, many))
		}
	}
	add(sum.Announced, "announcement of new minutes", "announcements of new minutes")
	add(sum.Approved, "announcement updated on approval", "announcements updated on approval")
	add(sum.DMs, "assignment DM", "assignment DMs")
	add(sum.DMsOff, "assignment DM not sent (its person turned them off)", "assignment DMs not sent (their people turned them off)")
	add(sum.DMsHeld, "assignment held for someone away", "assignments held for someone away")
	add(sum.Digests, "weekly digest", "weekly digests")
	add(sum.Briefs, "pre-meeting brief", "pre-meeting briefs")
	add(sum.BriefsUpdated, "brief updated for a moved meeting", "briefs updated for moved meetings")
	add(sum.TopicPosts, "topic match", "topic matches")
	if len(news) > 0 {
		fmt.Fprintf(&b, "\nNew: %s.", strings.Join(news, ", "))
	}
	if sum.Failed > 0 || sum.Undeliverable > 0 {
		fmt.Fprintf(&b, "\nNot sent: %d (the next watch tries again).", sum.Failed+sum.Undeliverable)
	}
	return b.String()
}
