package minutes

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/recordsbot/recordsbot/apiclient"
	"github.com/recordsbot/recordsbot/publication"
)

// The archive's bounds: how many minutes a page lists, and how much of the
// records one page may read to find them (meeting pages, and minutes
// looked up), so a committee with few published minutes among many
// meetings costs a bounded read per page, however deep the history.
const (
	ArchivePageSize    = 20
	archiveMeetingRead = 5
	archiveMinutesRead = 100
	archiveBatch       = 4
)

// ErrBadCursor is returned by Archive for a cursor it did not make.
var ErrBadCursor = errors.New("minutes: not an archive cursor")

// ArchivePage is one page of the archive: meetings with visible minutes,
// newest first (the records' order).
type ArchivePage struct {
	Entries []Entry
	// Next is the cursor of the page after this one; "" when the records
	// have no more meetings.
	Next string
}

// archiveCursor is where an archive page starts: a records page (its
// token; "" for the first) and how many of its meetings were already
// looked at.
type archiveCursor struct {
	Next string
	Skip int
}

// Archive returns a page of the published minutes, newest first, of the
// committee whose CommitteeKey is committee's ("" for all), starting at
// cursor ("" for the first page; a page's Next for the one after). Pages
// are shared for CacheTTL. A page lists up to ArchivePageSize minutes and
// reads at most 5 pages of meetings and 100 minutes to find them: it may
// list fewer and still have a Next. Meetings in the future are skipped.
// Errors: ErrBadCursor for a cursor Archive did not make; the records
// service's, wrapped.
func (s *Service) Archive(ctx context.Context, committee, cursor string) (ArchivePage, error) {
	ck := CommitteeKey(committee)
	cur, err := s.cursors.open(cursor, ck, s.now())
	if err != nil {
		return ArchivePage{}, err
	}
	key := ck + "\x00" + cursor
	page, err := s.archive.Get(ctx, key, func(ctx context.Context) (ArchivePage, error) {
		page, err := s.archivePage(ctx, ck, cur)
		if err == nil {
			s.withVersions(ctx, page.Entries)
		}
		return page, err
	})
	if err != nil {
		return page, err
	}
	return s.stillServed(ctx, page), nil
}

// stillServed is page without the minutes the records were found no
// longer to serve when asked again after the last watcher poll
// (listedMinutesOf, one lookup per entry read before the poll, shared with
// search): a page kept for CacheTTL lists nothing withdrawn once a poll
// has run. An entry that cannot be asked again stays as it was read: the
// archive shows what it last read, where search hides what it cannot
// vouch for.
func (s *Service) stillServed(ctx context.Context, page ArchivePage) ArchivePage {
	if s.lastPoll(ctx).IsZero() || len(page.Entries) == 0 {
		return page
	}
	mins := make([]*apiclient.Minutes, len(page.Entries))
	errs := make([]error, len(page.Entries))
	var wg sync.WaitGroup
	for i, e := range page.Entries {
		wg.Go(func() { mins[i], errs[i] = s.listedMinutesOf(ctx, e.Meeting.ID) })
	}
	wg.Wait()
	kept := make([]Entry, 0, len(page.Entries))
	for i, e := range page.Entries {
		switch {
		case errs[i] != nil:
			kept = append(kept, e)
		case mins[i] != nil:
			e.Minutes = mins[i]
			kept = append(kept, e)
		}
	}
	page.Entries = kept
	return page
}

// ArchiveCursor reports whether cursor is one Archive made for the list
// of committee ("" for all) and still honours; "" (the first page) is.
// It is the check Archive makes before anything is read, for the public
// gate to ask first.
func (s *Service) ArchiveCursor(committee, cursor string) bool {
	_, err := s.cursors.open(cursor, CommitteeKey(committee), s.now())
	return err == nil
}

func (s *Service) archivePage(ctx context.Context, committee string, cur archiveCursor) (ArchivePage, error) {
	now := s.now()
	seal := func(c archiveCursor) string { return s.cursors.seal(c, committee, now) }
	var out ArchivePage
	reads := 0
	for page := 0; page < archiveMeetingRead; page++ {
		p, err := s.records.ListMeetings(ctx, &apiclient.ListMeetingsOptions{Next: cur.Next})
		if err != nil {
			return ArchivePage{}, fmt.Errorf("list meetings: %w", err)
		}
		ms := p.Meetings[min(cur.Skip, len(p.Meetings)):]
		for start := 0; start < len(ms); {
			// The next few meetings that may have minutes, looked up
			// together.
			var batch []int
			end := start
			for ; end < len(ms) && len(batch) < archiveBatch; end++ {
				m := &ms[end]
				if m.Date.After(now) || committee != "" && CommitteeKey(m.Committee) != committee || publication.Withheld(m) {
					continue
				}
				batch = append(batch, end)
			}
			mins, err := s.listedMinutes(ctx, ms, batch)
			if err != nil {
				return ArchivePage{}, err
			}
			reads += len(batch)
			for i, j := range batch {
				if mins[i] == nil {
					continue
				}
				m := ms[j]
				out.Entries = append(out.Entries, Entry{Meeting: &m, Minutes: mins[i]})
				if len(out.Entries) == ArchivePageSize {
					out.Next = seal(archiveCursor{Next: cur.Next, Skip: cur.Skip + j + 1})
					return out, nil
				}
			}
			start = end
			if reads >= archiveMinutesRead && start < len(ms) {
				out.Next = seal(archiveCursor{Next: cur.Next, Skip: cur.Skip + start})
				return out, nil
			}
		}
		if p.Next == "" {
			return out, nil
		}
		cur = archiveCursor{Next: p.Next}
		if reads >= archiveMinutesRead {
			break
		}
	}
	out.Next = seal(cur)
	return out, nil
}

// listedMinutes looks up, concurrently and through the shared cache, the
// visible minutes of ms[i] for each i in which; nil for none.
func (s *Service) listedMinutes(ctx context.Context, ms []apiclient.Meeting, which []int) ([]*apiclient.Minutes, error) {
	out := make([]*apiclient.Minutes, len(which))
	errs := make([]error, len(which))
	var wg sync.WaitGroup
	for i, j := range which {
		id := ms[j].ID
		wg.Go(func() {
			out[i], errs[i] = s.listedMinutesOf(ctx, id)
		})
	}
	wg.Wait()
	return out, errors.Join(errs...)
}

// listedMinutesOf is the visible minutes of meeting id through the shared
// cache (CacheTTL; HiddenTTL for none); nil for none.
func (s *Service) listedMinutesOf(ctx context.Context, id string) (*apiclient.Minutes, error) {
	return s.listed.GetSince(ctx, id, s.lastPoll(ctx), func(ctx context.Context) (*apiclient.Minutes, error) {
		return s.loadListed(ctx, id)
	})
}

// loadListed reads the visible minutes of meeting id; nil for none. The
// version read is kept (Record), as wherever minutes are read.
func (s *Service) loadListed(ctx context.Context, id string) (*apiclient.Minutes, error) {
	min, err := s.records.GetMinutes(ctx, id)
	if errors.Is(err, apiclient.ErrNotFound) || err == nil && !Visible(min) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("minutes of %s: %w", id, err)
	}
	s.record(ctx, id, min)
	return min, nil
}

// withVersions gives each entry the versions kept of its minutes, in one
// store read for the page (when it is built, not when it is shown): the
// feed marks minutes edited after approval. A store that cannot be read
// leaves them without, logged.
func (s *Service) withVersions(ctx context.Context, es []Entry) {
	if s.history == nil || len(es) == 0 {
		return
	}
	ids := make([]string, len(es))
	for i, e := range es {
		ids[i] = e.Meeting.ID
	}
	vs, err := s.history.MinutesVersionsOf(ctx, ids)
	if err != nil {
		s.log.WarnContext(ctx, "minutes: versions not read for the archive", "error", err)
		return
	}
	for i := range es {
		es[i].Versions = vs[es[i].Meeting.ID]
	}
}
