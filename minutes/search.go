package minutes

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"

	"github.com/recordsbot/recordsbot/apiclient"
	"github.com/recordsbot/recordsbot/minutes/body"
	"github.com/recordsbot/recordsbot/store"
)

// Index is the minutes search index; *store.Store implements it.
type Index interface {
	IndexMinutes(ctx context.Context, doc store.MinutesDoc) error
	RemoveMinutes(ctx context.Context, meetingID string) (bool, error)
	IndexedMinutes(ctx context.Context, meetingIDs []string) (map[string]bool, error)
	SearchMinutes(ctx context.Context, q store.MinutesQuery, offset, limit int) (store.MinutesPage, error)
}

// Indexed is what one read of a meeting's minutes did to the index.
type Indexed int

// What Apply did.
const (
	Unchanged Indexed = iota // the read failed: the index keeps what it had
	Added                    // visible minutes indexed (or indexed again)
	Removed                  // not found or hidden: out of the index (if it was there)
)

// Apply brings the index up to date with one read of a meeting's minutes
// (GetMinutes' answer, min and readErr): visible minutes are indexed;
// minutes not found, which is also how the records client reports minutes
// whose status is not visible, leave the index; any other error leaves the
// index as it was, for a later read to settle. Minutes are indexed only
// when their status is visible, whatever the caller passes.
// Errors: the store's (store.ErrUnavailable when it is down).
func Apply(ctx context.Context, idx Index, m *apiclient.Meeting, min *apiclient.Minutes, readErr error) (Indexed, error) {
	switch {
	case errors.Is(readErr, apiclient.ErrNotFound), readErr == nil && (min == nil || !min.Status.Visible()):
		if _, err := idx.RemoveMinutes(ctx, m.ID); err != nil {
			return Unchanged, fmt.Errorf("unindex minutes of %s: %w", m.ID, err)
		}
		return Removed, nil
	case readErr != nil:
		return Unchanged, nil
	}
	if err := idx.IndexMinutes(ctx, Doc(m, min)); err != nil {
		return Unchanged, fmt.Errorf("index minutes of %s: %w", m.ID, err)
	}
	return Added, nil
}

// Doc is the index's document for a meeting's visible minutes: the
// meeting's title, committee and date (the minutes' date when the meeting
// has none) and the body as plain text (body.PlainText, the one reading
// of minutes text, which the Slack text is written from too: what is
// found is what a reader sees).
func Doc(m *apiclient.Meeting, min *apiclient.Minutes) store.MinutesDoc {
	date, hasTime := m.Date, m.DateHasTime
	if date.IsZero() {
		date, hasTime = min.Date, true
	}
	return store.MinutesDoc{
		MeetingID:   m.ID,
		Title:       m.Name(),
		Committee:   strings.TrimSpace(m.Committee),
		Date:        date,
		DateHasTime: hasTime,
		Draft:       min.Draft(),
		URL:         min.URL,
		Body:        body.PlainText(min.Body, min.Format),
	}
}

// Served reports whether the records service serves meeting meetingID's
// minutes (approved or a published draft), as read through the shared
// cache the archive uses: an answer at most CacheTTL old, or HiddenTTL
// for "not served", and never one read before the last watcher poll
// began (Config.Polls). Errors: the records service's, other than not
// found, wrapped.
func (s *Service) Served(ctx context.Context, meetingID string) (bool, error) {
	min, err := s.listedMinutesOf(ctx, meetingID)
	return min != nil, err
}

// RecheckState is the store state (store.Store.SetState) the watcher sets
// to the time each poll began (RFC 3339): the domain serves no answer
// about a meeting's minutes read before it (Config.Polls), to a search, a
// page, or an entry of the archive and its feed. A poll reads the minutes
// it needs anyway; this is how what it does not read again, approved
// minutes since withdrawn, still leaves those surfaces once it has run.
const RecheckState = "search.recheck_before"

// Searcher is what ServedSearch wraps: the index's SearchMinutes.
type Searcher interface {
	SearchMinutes(ctx context.Context, q store.MinutesQuery, offset, limit int) (store.MinutesPage, error)
}

// Remover takes a meeting's minutes out of the index; *store.Store
// implements it.
type Remover interface {
	RemoveMinutes(ctx context.Context, meetingID string) (bool, error)
}

// States reads the store's named states; *store.Store implements it.
type States interface {
	GetState(ctx context.Context, name string) (string, bool, error)
}

// ServedSearch is the index as every search surface (/minutes search, the
// Home search, the public archive's search box) reads it: it shows only
// what it can vouch for. Each hit is checked against the records service
// (Served) and shown only when the minutes are served now: a hit whose
// minutes are no longer served (withdrawn, back to draft, gone) is left
// out and taken out of the index (Remove) at once, so it costs one lookup
// once; a hit that cannot be checked (records unreachable, the public
// budget spent) is left out too, and shown again when it can be.
//
// How fresh a check is: the answer is shared with the archive and the
// pages for CacheTTL (1 minute), but never one read before the last watch
// poll began (Served, Config.Polls): after a poll, the first search checks
// its hits again, so minutes withdrawn before the poll leave every search
// surface once it has run, however old their meeting. The index is
// written by reads (Apply), and the watcher reads only recent minutes
// again; the cost is on the search, never per indexed document: at most
// one minutes lookup per hit shown, shared through the cache.
type ServedSearch struct {
	Index   Searcher
	Minutes *Service
	// Remove, when set, takes minutes found no longer served out of the
	// index; a failure is logged to Log (nil logs nothing) and left for
	// the next search or the daily backfill to settle.
	Remove Remover
	Log    *slog.Logger
}

// SearchMinutes is Index.SearchMinutes with only the hits the records
// service serves now. Errors: the index's.
func (ss ServedSearch) SearchMinutes(ctx context.Context, q store.MinutesQuery, offset, limit int) (store.MinutesPage, error) {
	page, err := ss.Index.SearchMinutes(ctx, q, offset, limit)
	if err != nil || len(page.Hits) == 0 || ss.Minutes == nil {
		return page, err
	}
	gone := make([]bool, len(page.Hits))
	unchecked := make([]bool, len(page.Hits))
	var wg sync.WaitGroup
	for i, h := range page.Hits {
		wg.Go(func() {
			served, err := ss.Minutes.Served(ctx, h.MeetingID)
			gone[i], unchecked[i] = err == nil && !served, err != nil
		})
	}
	wg.Wait()
	kept := page.Hits[:0]
	for i, h := range page.Hits {
		switch {
		case unchecked[i]:
			continue
		case !gone[i]:
			kept = append(kept, h)
			continue
		case ss.Remove == nil:
			continue
		}
		if _, err := ss.Remove.RemoveMinutes(ctx, h.MeetingID); err != nil && ss.Log != nil {
			ss.Log.WarnContext(ctx, "search: could not take minutes no longer served out of the index", "meeting", h.MeetingID, "error", err)
		}
	}
	page.Hits = kept
	return page, nil
}
