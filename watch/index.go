package watch

import (
	"context"
	"errors"
	"fmt"

	"github.com/recordsbot/recordsbot/apiclient"
	"github.com/recordsbot/recordsbot/minutes"
)

// minutesRead is one GetMinutes answer, kept for the rest of the poll.
type minutesRead struct {
	min *apiclient.Minutes
	err error
}

// readMinutes reads a meeting's minutes at most once a poll, and brings
// the search index up to date with what it read: visible minutes are
// indexed, minutes not found or hidden leave it. An index that cannot be
// written is logged and the poll goes on: announcements do not wait on
// search.
func (p *poll) readMinutes(ctx context.Context, m *apiclient.Meeting) (*apiclient.Minutes, error) {
	if r, ok := p.minutes[m.ID]; ok {
		return r.min, r.err
	}
	min, err := p.deps.Minutes.MinutesOf(ctx, m.ID)
	p.minutes[m.ID] = minutesRead{min, err}
	if err == nil {
		p.sum.Minutes++
	}
	switch res, ierr := minutes.Apply(ctx, p.deps.Store, m, min, err); {
	case ierr != nil:
		p.log.WarnContext(ctx, "watch: search index not updated", "meeting", m.ID, "error", ierr)
		p.indexErr = ierr
	case res == minutes.Added:
		p.sum.Indexed++
	}
	if err == nil && minutes.Visible(min) {
		// Each version read while visible is kept (the minutes domain's
		// Record): the approval's changes and edits after approval are
		// told from them (watch/versions.go).
		if _, verr := minutes.Record(ctx, p.deps.Store, m.ID, min); verr != nil {
			p.log.WarnContext(ctx, "watch: minutes version not kept", "meeting", m.ID, "error", verr)
		}
	}
	return min, err
}

// listMeetings reads a meetings page at most once a poll: the
// announcements and the search index walk the same pages.
func (p *poll) listMeetings(ctx context.Context, next string) (*apiclient.MeetingPage, error) {
	if mp, ok := p.pages[next]; ok {
		return mp, nil
	}
	mp, err := p.deps.Minutes.Meetings(ctx, next)
	if err != nil {
		return nil, fmt.Errorf("list meetings: %w", err)
	}
	p.sum.MeetingPages++
	p.pages[next] = mp
	return mp, nil
}

// index keeps the minutes search fresh: of the meetings dated within the
// last Config.Backfill (the window in which new minutes appear), it reads
// the minutes of those not indexed as approved; further back, within
// Config.Lookback, those indexed as drafts (until they are approved or
// withdrawn). Minutes read by the announcements this poll are not read
// again. Older changes are the background backfill's (minutes.Backfill).
func (p *poll) index(ctx context.Context) error {
	recent, floor := p.now.Add(-p.cfg.Backfill), p.now.Add(-p.cfg.Lookback)
	next := ""
	for page := 0; page < p.cfg.MaxMeetingPages; page++ {
		mp, err := p.listMeetings(ctx, next)
		if err != nil {
			return err
		}
		var ids []string
		for _, m := range mp.Meetings {
			ids = append(ids, m.ID)
		}
		indexed, err := p.deps.Store.IndexedMinutes(ctx, ids)
		if err != nil {
			return fmt.Errorf("read search index: %w", err)
		}
		for i := range mp.Meetings {
			m := &mp.Meetings[i]
			if m.Date.After(p.now) {
				continue // to come: no minutes yet
			}
			if !m.Date.IsZero() && m.Date.Before(floor) {
				return p.indexErr
			}
			draft, had := indexed[m.ID]
			recentOne := m.Date.IsZero() || !m.Date.Before(recent)
			if (had && !draft) || (!had && !recentOne) {
				continue
			}
			if _, err := p.readMinutes(ctx, m); err != nil && !errors.Is(err, apiclient.ErrNotFound) {
				return fmt.Errorf("minutes of %s: %w", m.ID, err)
			}
		}
		if next = mp.Next; next == "" {
			break
		}
	}
	return p.indexErr
}
