package watch

import (
	"context"
	"errors"
	"fmt"
	"log/slog"

	"github.com/recordsbot/recordsbot/apiclient"
	"github.com/recordsbot/recordsbot/store"
)

// Baseline takes the baseline of follow f when it is made, so that
// "from now on" in /minutes follow is true: the minutes of f's committee
// visible now (meetings within cfg.Lookback) are recorded as announced in
// f's channel with no post, and the follow is marked baselined. Whatever
// becomes visible after this (a draft published, a draft approved) is
// announced by the next poll. It costs the meeting pages back to the
// lookback and one GetMinutes per meeting of the committee.
//
// A follow left without its baseline (Baseline failed, or was never
// called) is baselined by the next poll instead, which then treats what
// is visible at the poll as old news. Errors: the records service's and
// the store's; nothing is marked baselined then.
func Baseline(ctx context.Context, cfg Config, deps Deps, f store.Follow) error {
	cfg.setDefaults()
	if deps.Logger == nil {
		deps.Logger = slog.New(slog.DiscardHandler)
	}
	p := newPoll(cfg, deps)
	followed := map[string][]store.Follow{f.CommitteeKey: {f}}
	meetings, _, err := p.readMeetings(ctx, p.now.Add(-cfg.Lookback), followed)
	if err != nil {
		return fmt.Errorf("baseline of %s in %s: %w", f.Committee, f.ChannelID, err)
	}
	for _, m := range meetings {
		if _, had, err := deps.Store.Announcement(ctx, f.ChannelID, m.ID); err != nil || had {
			// A channel that followed before keeps what it was told.
			if err != nil {
				return err
			}
			continue
		}
		min, err := deps.Minutes.MinutesOf(ctx, m.ID)
		if errors.Is(err, apiclient.ErrNotFound) {
			continue
		}
		if err != nil {
			return fmt.Errorf("baseline of %s in %s: minutes of %s: %w", f.Committee, f.ChannelID, m.ID, err)
		}
		if !min.Status.Visible() {
			continue
		}
		if err := deps.Store.PutAnnouncement(ctx, store.Announcement{ChannelID: f.ChannelID, MeetingID: m.ID, Status: string(min.Status)}); err != nil {
			return err
		}
	}
	if _, err := deps.Store.MarkFollowBaselined(ctx, f.ChannelID, f.CommitteeKey); err != nil {
		return err
	}
	p.log.InfoContext(ctx, "watch: follow baselined when made", "channel", f.ChannelID, "committee", f.Committee,
		"meetings", len(meetings), "pages", p.sum.MeetingPages)
	return nil
}
