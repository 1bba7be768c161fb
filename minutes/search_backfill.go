package minutes

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/recordsbot/recordsbot/apiclient"
	"github.com/recordsbot/recordsbot/internal/retry"
)

// BackfillState is the name of the backfill's cursor in the store's state.
const BackfillState = "search_backfill"

// DefaultBackfillRate is the backfill's pace when none is configured: one
// records call a second, meetings pages and minutes reads together.
const DefaultBackfillRate = 1.0

// BackfillRecords is what the backfill reads; *apiclient.Client
// implements it.
type BackfillRecords interface {
	ListMeetings(ctx context.Context, opts *apiclient.ListMeetingsOptions) (*apiclient.MeetingPage, error)
	GetMinutes(ctx context.Context, meetingID string) (*apiclient.Minutes, error)
}

// State keeps the backfill's cursor and the lock that keeps one replica
// at it; *store.Store implements it.
type State interface {
	GetState(ctx context.Context, name string) (string, bool, error)
	SetState(ctx context.Context, name, value string) error
	TryLock(ctx context.Context, name, owner string, ttl time.Duration) (bool, error)
}

// backfillLockTTL is how long the backfill's lock outlives its last
// renewal (before every records call): a replica that stops is taken
// over by another within it.
const backfillLockTTL = 2 * time.Minute

// BackfillCursor is where the backfill stands, kept in the store so that
// a restart goes on where it stopped.
type BackfillCursor struct {
	// Next is the meetings page being read ("" the first); Skip, the
	// meetings of it already done.
	Next string `json:"next,omitempty"`
	Skip int    `json:"skip,omitempty"`
	// Pages and Read count this pass's meetings pages and minutes reads.
	Pages int `json:"pages,omitempty"`
	Read  int `json:"read,omitempty"`
	// LastPages and LastRead are the last whole pass's counts, kept while
	// the backfill waits for the next pass, so that /metrics says what the
	// log said ("pass done … minutes_read=46") rather than 0.
	LastPages int `json:"last_pages,omitempty"`
	LastRead  int `json:"last_read,omitempty"`
	// DoneAt is when the last whole pass ended; zero before the first.
	DoneAt time.Time `json:"done_at,omitzero"`
}

// ErrBackfillCursor is returned, wrapped, by ReadBackfillCursor for a
// kept cursor it cannot read, with the zero cursor: a pass then starts
// over (Pass logs it; doctor says it).
var ErrBackfillCursor = errors.New("the backfill's cursor cannot be read")

// ReadBackfillCursor returns the backfill's cursor; the zero cursor when
// none was kept. Errors: the store's, and ErrBackfillCursor.
func ReadBackfillCursor(ctx context.Context, st State) (BackfillCursor, error) {
	var c BackfillCursor
	v, ok, err := st.GetState(ctx, BackfillState)
	if err != nil || !ok {
		return c, err
	}
	if err := json.Unmarshal([]byte(v), &c); err != nil {
		return BackfillCursor{}, fmt.Errorf("%w: %w", ErrBackfillCursor, err)
	}
	return c, nil
}

// Backfill indexes the whole history of minutes in the background: it
// walks the meetings list, newest first, and reads each past meeting's
// minutes once, indexing the visible ones and removing the rest, at Rate
// records calls a second. Its cursor is in the store after every meeting,
// so a restart goes on where it stopped. A finished pass starts again
// after Every, which catches minutes approved or withdrawn long after
// their meeting.
type Backfill struct {
	// Rate is records calls a second. Default DefaultBackfillRate.
	Rate float64
	// History keeps each version read (Record); nil keeps none.
	History History
	// Every is the time from the end of one whole pass to the start of
	// the next. Default 24 hours.
	Every   time.Duration
	Records BackfillRecords
	Index   Index
	State   State
	// Owner names this process in the store's lock, so that of several
	// replicas one backfills at a time. Default "recordsbot".
	Owner  string
	Logger *slog.Logger
	// Now is the clock. Default time.Now.
	Now func() time.Time
	// Sleep waits d or until ctx ends. Default a timer.
	Sleep func(ctx context.Context, d time.Duration) error

	mu     sync.Mutex
	cursor BackfillCursor
}

func (b *Backfill) defaults() {
	if b.Rate <= 0 {
		b.Rate = DefaultBackfillRate
	}
	if b.Every <= 0 {
		b.Every = 24 * time.Hour
	}
	if b.Logger == nil {
		b.Logger = slog.New(slog.DiscardHandler)
	}
	if b.Owner == "" {
		b.Owner = "recordsbot"
	}
	if b.Now == nil {
		b.Now = time.Now
	}
	if b.Sleep == nil {
		b.Sleep = retry.Sleep
	}
}

// Cursor is where the backfill stands now.
func (b *Backfill) Cursor() BackfillCursor {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.cursor
}

// Progress is what /metrics shows: the meetings pages and minutes read in
// the pass under way, or, between passes, in the last whole pass; and
// when the last whole pass ended (zero before the first).
func (b *Backfill) Progress() (pages, read int, doneAt time.Time) {
	c := b.Cursor()
	if c.Pages == 0 && c.Read == 0 && c.Next == "" && c.Skip == 0 {
		return c.LastPages, c.LastRead, c.DoneAt
	}
	return c.Pages, c.Read, c.DoneAt
}

// Run runs passes until ctx ends, waiting a minute after a failed read
// before going on from the cursor. It returns ctx's error.
func (b *Backfill) Run(ctx context.Context) error {
	b.defaults()
	for {
		wait, err := b.Pass(ctx)
		if err != nil && ctx.Err() == nil {
			b.Logger.WarnContext(ctx, "search backfill: stopped; trying again in a minute", "error", err)
			wait = time.Minute
		}
		if err := b.Sleep(ctx, wait); err != nil {
			return err
		}
	}
}

// Pass goes on with the current pass until it ends, and returns how long
// to wait before the next. Errors: the records service's or the store's;
// the cursor keeps what was done.
func (b *Backfill) Pass(ctx context.Context) (time.Duration, error) {
	b.defaults()
	c, err := ReadBackfillCursor(ctx, b.State)
	switch {
	case errors.Is(err, ErrBackfillCursor):
		b.Logger.WarnContext(ctx, "search backfill: starting the pass over", "error", err)
	case err != nil:
		return 0, fmt.Errorf("read backfill cursor: %w", err)
	}
	b.setCursor(c)
	if !c.DoneAt.IsZero() && c.Next == "" && c.Skip == 0 && c.Pages == 0 {
		if due := c.DoneAt.Add(b.Every); b.Now().Before(due) {
			return due.Sub(b.Now()), nil
		}
	}
	if c.Pages == 0 && c.Read == 0 {
		b.Logger.InfoContext(ctx, "search backfill: starting a pass over every meeting", "rate_per_second", b.Rate)
	}
	pace := time.Duration(float64(time.Second) / b.Rate)
	for {
		if err := b.Sleep(ctx, pace); err != nil {
			return 0, err
		}
		if mine, err := b.lock(ctx); !mine || err != nil {
			return backfillLockTTL, err
		}
		page, err := b.Records.ListMeetings(ctx, &apiclient.ListMeetingsOptions{Next: c.Next})
		if err != nil {
			return 0, fmt.Errorf("list meetings: %w", err)
		}
		c.Pages++
		now := b.Now()
		for i := c.Skip; i < len(page.Meetings); i++ {
			m := &page.Meetings[i]
			if !m.Date.After(now) { // a meeting to come has no minutes yet
				if err := b.Sleep(ctx, pace); err != nil {
					return 0, err
				}
				if mine, err := b.lock(ctx); !mine || err != nil {
					return backfillLockTTL, err
				}
				min, rerr := b.Records.GetMinutes(ctx, m.ID)
				c.Read++
				res, err := Apply(ctx, b.Index, m, min, rerr)
				if err != nil {
					return 0, err
				}
				if res == Unchanged { // the read failed: this meeting again next time
					return 0, fmt.Errorf("minutes of %s: %w", m.ID, rerr)
				}
				if b.History != nil && rerr == nil {
					// Old minutes edited after approval are noticed
					// here at the latest: the watcher reads only
					// recent meetings' minutes again.
					if _, err := Record(ctx, b.History, m.ID, min); err != nil {
						return 0, err
					}
				}
			}
			c.Skip = i + 1
			if err := b.save(ctx, c); err != nil {
				return 0, err
			}
		}
		if page.Next == "" {
			b.Logger.InfoContext(ctx, "search backfill: pass done", "meeting_pages", c.Pages, "minutes_read", c.Read)
			c = BackfillCursor{DoneAt: b.Now(), LastPages: c.Pages, LastRead: c.Read}
			return b.Every, b.save(ctx, c)
		}
		c.Next, c.Skip = page.Next, 0
		if err := b.save(ctx, c); err != nil {
			return 0, err
		}
		if c.Pages%10 == 0 {
			b.Logger.InfoContext(ctx, "search backfill: progress", "meeting_pages", c.Pages, "minutes_read", c.Read)
		}
	}
}

// lock takes or renews the backfill's lock; false when another replica
// holds it (this one then waits and tries again).
func (b *Backfill) lock(ctx context.Context) (bool, error) {
	mine, err := b.State.TryLock(ctx, BackfillState, b.Owner, backfillLockTTL)
	if err != nil {
		return false, fmt.Errorf("backfill lock: %w", err)
	}
	return mine, nil
}

func (b *Backfill) save(ctx context.Context, c BackfillCursor) error {
	v, err := json.Marshal(c)
	if err != nil {
		return fmt.Errorf("encode backfill cursor: %w", err)
	}
	if err := b.State.SetState(ctx, BackfillState, string(v)); err != nil {
		return fmt.Errorf("save backfill cursor: %w", err)
	}
	b.setCursor(c)
	return nil
}

func (b *Backfill) setCursor(c BackfillCursor) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.cursor = c
}
