package minutes

import (
	"context"
	"errors"
	"fmt"
	"strings"

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
