package main

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/recordsbot/recordsbot/actions"
	"github.com/recordsbot/recordsbot/audit"
	"github.com/recordsbot/recordsbot/bot"
	"github.com/recordsbot/recordsbot/internal/clocktime"
	"github.com/recordsbot/recordsbot/internal/health"
	"github.com/recordsbot/recordsbot/minutes"
	"github.com/recordsbot/recordsbot/store"
)

// errStoreNotOpen is every store call's answer while serve has not opened
// the store yet: the bot's one place that turns errors into words says the
// database is unavailable.
var errStoreNotOpen = fmt.Errorf("store not open yet (serve keeps trying): %w", store.ErrUnavailable)

// storeSlot is serve's store, which may open after serve has started: a
// PostgreSQL server still coming up after a node restart must not stop the
// bot answering everything that needs no store. Until it opens, every call
// fails as unavailable. It implements bot.Store and bot.MinutesSearch (a
// compile-time check below keeps it so as they grow).
type storeSlot struct {
	mu sync.RWMutex
	st *store.Store
}

func (s *storeSlot) get() (*store.Store, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if s.st == nil {
		return nil, errStoreNotOpen
	}
	return s.st, nil
}

func (s *storeSlot) set(st *store.Store) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.st = st
}

// close closes the store if it was opened.
func (s *storeSlot) close() {
	if st, err := s.get(); err == nil {
		_ = st.Close()
	}
}

func (s *storeSlot) Follow(ctx context.Context, f store.Follow) (bool, error) {
	st, err := s.get()
	if err != nil {
		return false, err
	}
	return st.Follow(ctx, f)
}

func (s *storeSlot) Unfollow(ctx context.Context, channelID, committeeKey string) (bool, error) {
	st, err := s.get()
	if err != nil {
		return false, err
	}
	return st.Unfollow(ctx, channelID, committeeKey)
}

func (s *storeSlot) FollowsInChannel(ctx context.Context, channelID string) ([]store.Follow, error) {
	st, err := s.get()
	if err != nil {
		return nil, err
	}
	return st.FollowsInChannel(ctx, channelID)
}

func (s *storeSlot) SetFollowChoice(ctx context.Context, channelID, committeeKey, what string, on bool) (bool, error) {
	st, err := s.get()
	if err != nil {
		return false, err
	}
	return st.SetFollowChoice(ctx, channelID, committeeKey, what, on)
}

func (s *storeSlot) SetFollowLanguage(ctx context.Context, channelID, committeeKey, code string) (bool, error) {
	st, err := s.get()
	if err != nil {
		return false, err
	}
	return st.SetFollowLanguage(ctx, channelID, committeeKey, code)
}

func (s *storeSlot) SetDigestChoice(ctx context.Context, channelID, committeeKey string, schedule *clocktime.Weekly, mentions bool) error {
	st, err := s.get()
	if err != nil {
		return err
	}
	return st.SetDigestChoice(ctx, channelID, committeeKey, schedule, mentions)
}

func (s *storeSlot) Digest(ctx context.Context, channelID, committeeKey string) (store.Digest, error) {
	st, err := s.get()
	if err != nil {
		return store.Digest{}, err
	}
	return st.Digest(ctx, channelID, committeeKey)
}

func (s *storeSlot) Settings(ctx context.Context, userID string) (store.Settings, error) {
	st, err := s.get()
	if err != nil {
		return store.Settings{}, err
	}
	return st.Settings(ctx, userID)
}

func (s *storeSlot) ChangeSettings(ctx context.Context, userID string, change store.Settings) error {
	st, err := s.get()
	if err != nil {
		return err
	}
	return st.ChangeSettings(ctx, userID, change)
}

// SearchMinutes searches the minutes index (bot.MinutesSearch).
func (s *storeSlot) SearchMinutes(ctx context.Context, q store.MinutesQuery, offset, limit int) (store.MinutesPage, error) {
	st, err := s.get()
	if err != nil {
		return store.MinutesPage{}, err
	}
	return st.SearchMinutes(ctx, q, offset, limit)
}

// RemoveMinutes takes a meeting's minutes out of the search index, as a
// search does for minutes the records service no longer serves
// (minutes.Remover).
func (s *storeSlot) RemoveMinutes(ctx context.Context, meetingID string) (bool, error) {
	st, err := s.get()
	if err != nil {
		return false, err
	}
	return st.RemoveMinutes(ctx, meetingID)
}

// GetState reads one of the store's named states: the minutes domain reads
// when the last watcher poll began (minutes.Config.Polls,
// minutes.RecheckState).
func (s *storeSlot) GetState(ctx context.Context, name string) (string, bool, error) {
	st, err := s.get()
	if err != nil {
		return "", false, err
	}
	return st.GetState(ctx, name)
}

// Ping is the store's health, as recordsbot_dependency_up{dependency="store"}
// reports it.
func (s *storeSlot) AppendAudit(ctx context.Context, e audit.Entry) (audit.Entry, error) {
	st, err := s.get()
	if err != nil {
		return e, err
	}
	return st.AppendAudit(ctx, e)
}

func (s *storeSlot) AuditOf(ctx context.Context, target string, limit int) ([]audit.Entry, error) {
	st, err := s.get()
	if err != nil {
		return nil, err
	}
	return st.AuditOf(ctx, target, limit)
}

func (s *storeSlot) AuditPage(ctx context.Context, before int64, limit int) ([]audit.Entry, int64, error) {
	st, err := s.get()
	if err != nil {
		return nil, 0, err
	}
	return st.AuditPage(ctx, before, limit)
}

func (s *storeSlot) Ping(ctx context.Context) error {
	st, err := s.get()
	if err != nil {
		return err
	}
	return st.Ping(ctx)
}

// Store open retries back off from storeRetryMin to storeRetryMax.
const (
	storeRetryMin = time.Second
	storeRetryMax = time.Minute
)

// firstStoreTry bounds serve's first try at the store, made before it
// starts serving, so that a store that is up is open from the first
// request; a slower one is left to openStoreInBackground.
const firstStoreTry = 5 * time.Second

// openStoreFirst tries the store once, within firstStoreTry, into slot.
// It returns nil when the store opened, an error wrapping
// store.ErrUnavailable when it should be retried in the background, and
// any other error (a schema newer than this binary) when serve should not
// start.
func openStoreFirst(ctx context.Context, a *app, slot *storeSlot, outage *health.Outage, opened func(*store.Store)) error {
	tctx, cancel := context.WithTimeout(ctx, firstStoreTry)
	defer cancel()
	st, err := openStore(tctx, a)
	if err != nil {
		if errors.Is(err, context.DeadlineExceeded) && !store.IsUnavailable(err) {
			err = fmt.Errorf("%w: %w", err, store.ErrUnavailable)
		}
		if store.IsUnavailable(err) {
			outage.Failed(ctx, err)
		}
		return err
	}
	slot.set(st)
	opened(st)
	return nil
}

// openStoreInBackground opens the store (applying its migrations) into
// slot, retrying with backoff while it is unavailable, then calls opened.
// A failure is logged through outage: once when it starts and then every
// few minutes, not on every try. It returns when the store is open, when
// ctx ends, or on an error no retry can mend (a schema newer than this
// binary, a bad URL), which it returns.
func openStoreInBackground(ctx context.Context, a *app, slot *storeSlot, outage *health.Outage, opened func(*store.Store)) error {
	wait := storeRetryMin
	for {
		if err := ctx.Err(); err != nil {
			return nil
		}
		st, err := openStore(ctx, a)
		if err == nil {
			outage.OK(ctx)
			slot.set(st)
			opened(st)
			return nil
		}
		if !store.IsUnavailable(err) || ctx.Err() != nil {
			if ctx.Err() != nil {
				return nil
			}
			return err
		}
		outage.Failed(ctx, err)
		select {
		case <-ctx.Done():
			return nil
		case <-time.After(wait):
		}
		wait = min(2*wait, storeRetryMax)
	}
}

// errShuttingDown is /readyz's answer once serve has begun to stop, so
// that the load balancer sends new requests to other replicas.
var errShuttingDown = errors.New("shutting down")

var (
	_ bot.Store         = (*storeSlot)(nil)
	_ bot.MinutesSearch = (*storeSlot)(nil)
	// What the search surfaces and the minutes domain find on the store
	// besides the index (wire's Services.Bot, wireConfig): without them a
	// search would not take minutes no longer served out of the index,
	// and no surface would read again after a watcher poll.
	_ minutes.Remover = (*storeSlot)(nil)
	_ minutes.States  = (*storeSlot)(nil)
	_ bot.AuditTrail  = (*storeSlot)(nil)
	_ actions.Trail   = (*storeSlot)(nil)
)

// EventVersions implements calendar.Versions.
func (s *storeSlot) EventVersions(ctx context.Context, fps map[string]string) (map[string]store.EventVersion, error) {
	st, err := s.get()
	if err != nil {
		return nil, err
	}
	return st.EventVersions(ctx, fps)
}

// CalendarToken, AddCalendarToken, ReplaceCalendarToken and
// CalendarTokenUser implement
// calendar.Tokens.
func (s *storeSlot) CalendarToken(ctx context.Context, userID string) (store.CalendarToken, bool, error) {
	st, err := s.get()
	if err != nil {
		return store.CalendarToken{}, false, err
	}
	return st.CalendarToken(ctx, userID)
}

func (s *storeSlot) AddCalendarToken(ctx context.Context, tok store.CalendarToken) (store.CalendarToken, error) {
	st, err := s.get()
	if err != nil {
		return store.CalendarToken{}, err
	}
	return st.AddCalendarToken(ctx, tok)
}

func (s *storeSlot) ReplaceCalendarToken(ctx context.Context, tok store.CalendarToken) (store.CalendarToken, error) {
	st, err := s.get()
	if err != nil {
		return store.CalendarToken{}, err
	}
	return st.ReplaceCalendarToken(ctx, tok)
}

func (s *storeSlot) CalendarTokenUser(ctx context.Context, hash string) (string, bool, error) {
	st, err := s.get()
	if err != nil {
		return "", false, err
	}
	return st.CalendarTokenUser(ctx, hash)
}

func (s *storeSlot) Snooze(ctx context.Context, userID, actionID, until string) error {
	st, err := s.get()
	if err != nil {
		return err
	}
	return st.Snooze(ctx, userID, actionID, until)
}

func (s *storeSlot) Unsnooze(ctx context.Context, userID, actionID string) (bool, error) {
	st, err := s.get()
	if err != nil {
		return false, err
	}
	return st.Unsnooze(ctx, userID, actionID)
}

func (s *storeSlot) Snoozes(ctx context.Context, userID string) (map[string]store.Snooze, error) {
	st, err := s.get()
	if err != nil {
		return nil, err
	}
	return st.Snoozes(ctx, userID)
}

func (s *storeSlot) EndSnoozes(ctx context.Context, actionID string) error {
	st, err := s.get()
	if err != nil {
		return err
	}
	return st.EndSnoozes(ctx, actionID)
}

func (s *storeSlot) SetAway(ctx context.Context, userID, lastDay string) error {
	st, err := s.get()
	if err != nil {
		return err
	}
	return st.SetAway(ctx, userID, lastDay)
}

func (s *storeSlot) EndAway(ctx context.Context, userID, today string) (bool, error) {
	st, err := s.get()
	if err != nil {
		return false, err
	}
	return st.EndAway(ctx, userID, today)
}

func (s *storeSlot) AwayOf(ctx context.Context, userID string) (store.Away, error) {
	st, err := s.get()
	if err != nil {
		return store.Away{}, err
	}
	return st.AwayOf(ctx, userID)
}

func (s *storeSlot) AddTopicWatch(ctx context.Context, w store.TopicWatch, limit int) (store.TopicWatch, bool, error) {
	st, err := s.get()
	if err != nil {
		return store.TopicWatch{}, false, err
	}
	return st.AddTopicWatch(ctx, w, limit)
}

func (s *storeSlot) StopTopicWatch(ctx context.Context, id, userID, channelID string) (store.TopicWatch, bool, error) {
	st, err := s.get()
	if err != nil {
		return store.TopicWatch{}, false, err
	}
	return st.StopTopicWatch(ctx, id, userID, channelID)
}

func (s *storeSlot) TopicWatchesOf(ctx context.Context, userID, channelID string) ([]store.TopicWatch, error) {
	st, err := s.get()
	if err != nil {
		return nil, err
	}
	return st.TopicWatchesOf(ctx, userID, channelID)
}

func (s *storeSlot) CountMinutesMatches(ctx context.Context, q store.MinutesQuery, limit int) (int, error) {
	st, err := s.get()
	if err != nil {
		return 0, err
	}
	return st.CountMinutesMatches(ctx, q, limit)
}

func (s *storeSlot) MinutesIndexStats(ctx context.Context) (store.MinutesIndexStats, error) {
	st, err := s.get()
	if err != nil {
		return store.MinutesIndexStats{}, err
	}
	return st.MinutesIndexStats(ctx)
}

func (s *storeSlot) AddMinutesVersion(ctx context.Context, v store.MinutesVersion) (store.MinutesVersion, bool, error) {
	st, err := s.get()
	if err != nil {
		return v, false, err
	}
	return st.AddMinutesVersion(ctx, v)
}

func (s *storeSlot) MinutesVersions(ctx context.Context, meetingID string) ([]store.MinutesVersion, error) {
	st, err := s.get()
	if err != nil {
		return nil, err
	}
	return st.MinutesVersions(ctx, meetingID)
}

func (s *storeSlot) MinutesVersionText(ctx context.Context, meetingID string, n int) (store.MinutesVersion, bool, error) {
	st, err := s.get()
	if err != nil {
		return store.MinutesVersion{}, false, err
	}
	return st.MinutesVersionText(ctx, meetingID, n)
}

func (s *storeSlot) MinutesVersionsOf(ctx context.Context, meetingIDs []string) (map[string][]store.MinutesVersion, error) {
	st, err := s.get()
	if err != nil {
		return nil, err
	}
	return st.MinutesVersionsOf(ctx, meetingIDs)
}
