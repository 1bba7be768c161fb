package actions

import (
	"context"
	"errors"
	"slices"
	"sync"
	"time"

	"github.com/recordsbot/recordsbot/apiclient"
	"github.com/recordsbot/recordsbot/internal/cache"
)

// meetingTitleTTL is how long a meeting's title is kept. Titles of past
// meetings hardly change, and every list refresh would otherwise read each
// meeting again.
const meetingTitleTTL = time.Hour

// titleLookups is how many meetings are read at once when titles are
// missing: enough to fill a first list quickly, few enough to stay a
// polite client of the records service.
const titleLookups = 4

// titleBudget bounds how long a list load waits for missing titles: a
// slow meetings endpoint must not hold up the list, whose rows then show
// the meetings' IDs until a later refresh finds the titles.
const titleBudget = 2 * time.Second

// meetingTitles fills in the meeting titles that a records service leaves
// out of its actions. Some name an action's meeting only by reference:
// JSON:API gives it as a relationship ({"type": "meetings", "id": …}),
// and a plain service may carry only meeting_id. A row would then show
// "mtg_0342" where people expect the meeting's name, so the title is read
// from the meeting itself (GET /meetings/{id}) and kept for an hour.
type meetingTitles struct {
	records Records
	titles  *cache.TTL[string]
}

func newMeetingTitles(r Records, now func() time.Time) *meetingTitles {
	return &meetingTitles{records: r, titles: cache.New[string](meetingTitleTTL, now)}
}

// fill returns list with the MeetingTitle of the actions that have a
// MeetingID but no title set. list is the records client's, which may be
// shared: it is copied once a title is to be set, and returned as it is
// when there is none to set. A meeting that cannot be read leaves its
// actions as they were (their rows show the meeting's ID, as before); a
// meeting that is gone (404) is remembered as having no title, so it is
// not asked for again within the hour.
func (m *meetingTitles) fill(ctx context.Context, list []apiclient.Action) []apiclient.Action {
	copied := false
	setTitle := func(i int, t string) {
		if t == "" {
			return
		}
		if !copied {
			list, copied = slices.Clone(list), true
		}
		list[i].MeetingTitle = t
	}
	// Titles already known are filled in at once: with the list cache
	// off this runs for every command, and the meetings hardly change.
	// known holds what the cache said for each meeting, "" (a meeting
	// without a title, or gone) included, so that each meeting is looked
	// up once per list rather than once per action.
	var missing []string
	seen := map[string]bool{}
	known := map[string]string{}
	for i := range list {
		id := list[i].MeetingID
		if id == "" || list[i].MeetingTitle != "" {
			continue
		}
		if t, ok := known[id]; ok {
			setTitle(i, t)
			continue
		}
		if t, ok := m.titles.Peek(id); ok {
			known[id] = t
			setTitle(i, t)
			continue
		}
		if !seen[id] {
			seen[id] = true
			missing = append(missing, id)
		}
	}
	if len(missing) == 0 {
		return list
	}
	ctx, cancel := context.WithTimeout(ctx, titleBudget)
	defer cancel()
	titles := make(map[string]string, len(missing))
	var mu sync.Mutex
	var wg sync.WaitGroup
	ids := make(chan string)
	for range min(titleLookups, len(missing)) {
		wg.Go(func() {
			for id := range ids {
				t, err := m.titles.Get(ctx, id, func(ctx context.Context) (string, error) {
					meeting, err := m.records.GetMeeting(ctx, id)
					if errors.Is(err, apiclient.ErrNotFound) {
						return "", nil
					}
					if err != nil {
						return "", err
					}
					return meeting.Title, nil
				})
				if err == nil && t != "" {
					mu.Lock()
					titles[id] = t
					mu.Unlock()
				}
			}
		})
	}
	for _, id := range missing {
		ids <- id
	}
	close(ids)
	wg.Wait()
	for i := range list {
		if t, ok := titles[list[i].MeetingID]; ok && list[i].MeetingTitle == "" {
			setTitle(i, t)
		}
	}
	return list
}
