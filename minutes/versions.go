package minutes

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"
	"time"

	"github.com/recordsbot/recordsbot/apiclient"
	"github.com/recordsbot/recordsbot/minutes/body"
	"github.com/recordsbot/recordsbot/minutes/diff"
	"github.com/recordsbot/recordsbot/store"
)

// History keeps the versions of minutes the bot has read while they were
// visible; *store.Store implements it.
type History interface {
	AddMinutesVersion(ctx context.Context, v store.MinutesVersion) (store.MinutesVersion, bool, error)
	MinutesVersions(ctx context.Context, meetingID string) ([]store.MinutesVersion, error)
	// MinutesVersionsOf is MinutesVersions of several meetings at once.
	MinutesVersionsOf(ctx context.Context, meetingIDs []string) (map[string][]store.MinutesVersion, error)
	MinutesVersionText(ctx context.Context, meetingID string, n int) (store.MinutesVersion, bool, error)
}

// Record keeps the version of min, meetingID's minutes as just read, when
// h has not seen it: its plain text's hash (body.PlainText, so HTML,
// Markdown and plain minutes compare alike and markup alone is no change)
// and its status, with the places changed since the latest version kept.
// Minutes that are not visible are never kept: a draft never published
// stays unseen. It is called where minutes are read anyway (the watcher's
// reads, a page or command's read through the cache), never per view, and
// returns the meeting's versions after. Errors: h's.
func Record(ctx context.Context, h History, meetingID string, min *apiclient.Minutes) ([]store.MinutesVersion, error) {
	if !Visible(min) {
		return nil, nil
	}
	text := body.PlainText(min.Body, min.Format)
	sum := sha256.Sum256([]byte(strings.Join(strings.Fields(text), " ")))
	hash := hex.EncodeToString(sum[:16])
	vs, err := h.MinutesVersions(ctx, meetingID)
	if err != nil {
		return nil, fmt.Errorf("read versions of %s: %w", meetingID, err)
	}
	for _, v := range vs {
		if v.Hash == hash && v.Status == string(min.Status) {
			return vs, nil
		}
	}
	changes := -1
	if len(vs) > 0 {
		last, ok, err := h.MinutesVersionText(ctx, meetingID, vs[len(vs)-1].N)
		if err != nil {
			return nil, fmt.Errorf("read version of %s: %w", meetingID, err)
		}
		if ok {
			changes = diff.Compare(last.Body, text).Changes
		}
	}
	v, added, err := h.AddMinutesVersion(ctx, store.MinutesVersion{MeetingID: meetingID, Hash: hash, Status: string(min.Status), Body: text, Changes: changes})
	if err != nil {
		return nil, fmt.Errorf("keep version of %s: %w", meetingID, err)
	}
	if added {
		vs = append(vs, v)
	}
	return vs, nil
}

// Revisions is what a reader is told of a meeting's versions: when its
// minutes were approved, how much the approval changed of the draft, and
// edits made after approval. Zero when nothing is known (a draft alone,
// or minutes first seen approved).
type Revisions struct {
	// Approved is when the approved minutes were first seen; zero while
	// they are a draft.
	Approved time.Time
	// Draft is when the draft the approval is compared with was first
	// seen; zero when the bot saw no draft.
	Draft time.Time
	// Changes counts the places the approval changed of that draft (0:
	// approved as drafted).
	Changes int
	// Edited is when the latest edit after approval was first seen; zero
	// when there was none. EditChanges counts the places those edits
	// changed.
	Edited      time.Time
	EditChanges int
	// From and To are the versions a comparison shows: the draft and the
	// approval, or, once edited, the first approval and the latest.
	From, To int
}

// Known reports whether r has anything to tell.
func (r Revisions) Known() bool { return !r.Draft.IsZero() || !r.Edited.IsZero() }

// RevisionsOf reads vs, a meeting's versions oldest first.
func RevisionsOf(vs []store.MinutesVersion) Revisions {
	var r Revisions
	first := -1
	for i, v := range vs {
		if v.Status == string(apiclient.MinutesApproved) {
			first = i
			break
		}
	}
	if first < 0 {
		return r
	}
	a := vs[first]
	r.Approved = a.FirstSeen
	if first > 0 && vs[first-1].Status == string(apiclient.MinutesPublishedDraft) && vs[first-1].N == a.N-1 && a.Changes >= 0 {
		r.Draft, r.Changes, r.From, r.To = vs[first-1].FirstSeen, a.Changes, vs[first-1].N, a.N
	}
	for _, v := range vs[first+1:] {
		if v.Status != string(apiclient.MinutesApproved) {
			continue // back to a draft: drafts change
		}
		r.Edited = v.FirstSeen
		r.EditChanges += max(v.Changes, 0)
		r.From, r.To = a.N, v.N
	}
	return r
}

// Compare is CompareVersions over the domain's History, computed once per
// pair of versions and kept (a pair's texts never change). ok is false
// when either version is not kept, or there is no History.
func (s *Service) Compare(ctx context.Context, meetingID string, from, to int) (diff.Comparison, bool, error) {
	if s.history == nil {
		return diff.Comparison{}, false, nil
	}
	key := fmt.Sprintf("%s\x00%d\x00%d", meetingID, from, to)
	c, err := s.comparisons.Get(ctx, key, func(ctx context.Context) (comparison, error) {
		c, ok, err := CompareVersions(ctx, s.history, meetingID, from, to)
		return comparison{c: c, ok: ok}, err
	})
	return c.c, c.ok, err
}

// CompareVersions compares versions from and to of meetingID's minutes,
// as h keeps them; ok is false when either is not kept. Errors: h's.
func CompareVersions(ctx context.Context, h History, meetingID string, from, to int) (c diff.Comparison, ok bool, err error) {
	a, okA, err := h.MinutesVersionText(ctx, meetingID, from)
	if err != nil || !okA {
		return diff.Comparison{}, false, err
	}
	b, okB, err := h.MinutesVersionText(ctx, meetingID, to)
	if err != nil || !okB {
		return diff.Comparison{}, false, err
	}
	return diff.Compare(a.Body, b.Body), true, nil
}

// comparison is a kept Compare answer.
type comparison struct {
	c  diff.Comparison
	ok bool
}
