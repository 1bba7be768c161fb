package minutes

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"sync"
	"time"

	"github.com/recordsbot/recordsbot/apiclient"
)

const (
	// latestWalk bounds how many meetings Latest looks at.
	latestWalk = 30
	// latestBatch is how many minutes are fetched at once during a walk:
	// enough to hide latency, few enough not to burst the records service.
	latestBatch = 4
	// latestPages bounds how many pages of meetings Latest reads.
	latestPages = 10
	// perCommitteePages and perCommitteeDepth bound LatestPerCommittee: the
	// meeting pages it reads, and how many of a committee's meetings it
	// asks for minutes.
	perCommitteePages = 3
	perCommitteeDepth = 3
)

// Latest walks meetings newest first and returns the first, of a committee
// matching committee (CommitteeMatches; "" for any), with visible minutes.
// It looks at no more than 30 past meetings, fetching minutes a few at a
// time; meetings in the future are skipped (they have no minutes yet).
// seen counts the meetings of the committee it looked at. When none has
// visible minutes, e.Meeting is nil and err nil. Errors are the records
// service's, wrapped.
func (s *Service) Latest(ctx context.Context, committee string) (e Entry, seen int, err error) {
	now := s.now()
	next := ""
	for page := 0; page < latestPages && seen < latestWalk; page++ {
		p, err := s.records.ListMeetings(ctx, &apiclient.ListMeetingsOptions{Next: next})
		if err != nil {
			return Entry{}, seen, fmt.Errorf("list meetings: %w", err)
		}
		var batch []*apiclient.Meeting
		for i := range p.Meetings {
			m := &p.Meetings[i]
			if !CommitteeMatches(m.Committee, committee) || m.Date.After(now) {
				continue
			}
			if seen++; seen > latestWalk {
				break
			}
			batch = append(batch, m)
		}
		for len(batch) > 0 {
			n := min(latestBatch, len(batch))
			e, err := s.first(ctx, batch[:n])
			if e.Meeting != nil || err != nil {
				return e, min(seen, latestWalk), err
			}
			batch = batch[n:]
		}
		if next = p.Next; next == "" {
			break
		}
	}
	return Entry{}, min(seen, latestWalk), nil
}

// LatestPerCommittee returns the newest visible minutes of each committee
// (by CommitteeKey) among recent meetings, newest first, shared for
// CacheTTL. It reads at most three pages of meetings and asks for the
// minutes of at most three past meetings per committee. On an error it
// returns what it found before it with the error.
func (s *Service) LatestPerCommittee(ctx context.Context) ([]Entry, error) {
	return s.latest.Get(ctx, "latest", s.latestPerCommittee)
}

func (s *Service) latestPerCommittee(ctx context.Context) ([]Entry, error) {
	now := s.now()
	perCommittee := map[string][]*apiclient.Meeting{}
	var order []string
	next := ""
	for page := 0; page < perCommitteePages; page++ {
		p, err := s.records.ListMeetings(ctx, &apiclient.ListMeetingsOptions{Next: next})
		if err != nil {
			return nil, fmt.Errorf("list meetings: %w", err)
		}
		for i := range p.Meetings {
			m := &p.Meetings[i]
			if m.Date.After(now) {
				continue
			}
			key := CommitteeKey(m.Committee)
			if _, ok := perCommittee[key]; !ok {
				order = append(order, key)
			}
			if len(perCommittee[key]) < perCommitteeDepth {
				perCommittee[key] = append(perCommittee[key], m)
			}
		}
		if next = p.Next; next == "" {
			break
		}
	}
	var out []Entry
	for _, key := range order {
		e, err := s.first(ctx, perCommittee[key])
		if err != nil {
			return out, err
		}
		if e.Meeting != nil {
			out = append(out, e)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return entryDate(out[i]).After(entryDate(out[j])) })
	return out, nil
}

// entryDate is the meeting's date, else the minutes' own.
func entryDate(e Entry) (t time.Time) {
	if t = e.Meeting.Date; t.IsZero() && e.Minutes != nil {
		t = e.Minutes.Date
	}
	return t
}

// first fetches the minutes of ms concurrently and returns the first
// meeting, in order, whose minutes are visible. An error other than "not
// found" for a meeting before that one is returned: the answer cannot be
// known to be the latest.
func (s *Service) first(ctx context.Context, ms []*apiclient.Meeting) (Entry, error) {
	type result struct {
		min *apiclient.Minutes
		err error
	}
	results := make([]result, len(ms))
	var wg sync.WaitGroup
	for i, m := range ms {
		wg.Add(1)
		go func() {
			defer wg.Done()
			min, err := s.records.GetMinutes(ctx, m.ID)
			results[i] = result{min, err}
		}()
	}
	wg.Wait()
	for i, r := range results {
		switch {
		case r.err == nil && Visible(r.min):
			return Entry{Meeting: ms[i], Minutes: r.min}, nil
		case r.err != nil && !errors.Is(r.err, apiclient.ErrNotFound):
			return Entry{}, fmt.Errorf("minutes of %s: %w", ms[i].ID, r.err)
		}
	}
	return Entry{}, nil
}
