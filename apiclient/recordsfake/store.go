package recordsfake

import (
	"maps"
	"slices"
	"strings"
	"sync"
	"time"
)

// store holds the records a server serves. Its methods are goroutine-safe
// and never hand out memory the store keeps.
type store struct {
	now func() time.Time

	mu sync.RWMutex
	// actions are kept in insertion order, which is the listing order and
	// what the actions cursor walks.
	actions     []Action
	actionIndex map[string]int // ID → position in actions
	// meetings are kept newest first, ties in insertion order.
	meetings     []Meeting
	meetingIndex map[string]int     // ID → position in meetings
	minutes      map[string]Minutes // by MeetingID
}

// actionRow is an action with what the wire form shows of its meeting,
// when the server has that meeting.
type actionRow struct {
	Action
	meetingTitle, committee string
}

func newStore(d Dataset, now func() time.Time) *store {
	s := &store{
		now:          now,
		actionIndex:  make(map[string]int),
		meetingIndex: make(map[string]int),
		minutes:      make(map[string]Minutes),
	}
	for _, a := range d.Actions {
		s.putActionLocked(a)
	}
	for _, m := range d.Meetings {
		s.putMeetingLocked(m)
	}
	s.sortMeetingsLocked()
	for _, m := range d.Minutes {
		s.putMinutesLocked(m)
	}
	return s
}

// putActionLocked replaces the action with a's ID, keeping its place, or
// appends a.
func (s *store) putActionLocked(a Action) {
	if a.CreatedAt.IsZero() {
		a.CreatedAt = s.now()
	}
	if i, ok := s.actionIndex[a.ID]; ok {
		s.actions[i] = a
		return
	}
	s.actionIndex[a.ID] = len(s.actions)
	s.actions = append(s.actions, a)
}

// putMeetingLocked replaces the meeting with m's ID or appends m; the caller
// must sort afterwards.
func (s *store) putMeetingLocked(m Meeting) {
	m = cloneMeeting(m)
	if i, ok := s.meetingIndex[m.ID]; ok {
		s.meetings[i] = m
		return
	}
	s.meetingIndex[m.ID] = len(s.meetings)
	s.meetings = append(s.meetings, m)
}

func (s *store) sortMeetingsLocked() {
	slices.SortStableFunc(s.meetings, func(a, b Meeting) int { return b.Date.Compare(a.Date) })
	clear(s.meetingIndex)
	for i, m := range s.meetings {
		s.meetingIndex[m.ID] = i
	}
}

func (s *store) putMinutesLocked(m Minutes) {
	if m.UpdatedAt.IsZero() {
		m.UpdatedAt = s.now()
	}
	s.minutes[m.MeetingID] = m
}

func (s *store) setActions(actions []Action) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.actions = nil
	clear(s.actionIndex)
	for _, a := range actions {
		s.putActionLocked(a)
	}
}

func (s *store) addAction(a Action) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.putActionLocked(a)
}

func (s *store) addMeeting(m Meeting) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.putMeetingLocked(m)
	s.sortMeetingsLocked()
}

func (s *store) setMinutes(m Minutes) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.putMinutesLocked(m)
}

func (s *store) allActions() []Action {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return slices.Clone(s.actions)
}

func (s *store) action(id string) (Action, bool) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	i, ok := s.actionIndex[id]
	if !ok {
		return Action{}, false
	}
	return s.actions[i], true
}

func (s *store) allMeetings() []Meeting {
	s.mu.RLock()
	defer s.mu.RUnlock()
	out := make([]Meeting, len(s.meetings))
	for i, m := range s.meetings {
		out[i] = cloneMeeting(m)
	}
	return out
}

func (s *store) allMinutes() []Minutes {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return slices.SortedFunc(maps.Values(s.minutes), func(a, b Minutes) int {
		return strings.Compare(a.MeetingID, b.MeetingID)
	})
}

// rowLocked adds to a what the wire form shows of its meeting.
func (s *store) rowLocked(a Action) actionRow {
	row := actionRow{Action: a}
	if i, ok := s.meetingIndex[a.MeetingID]; ok && a.MeetingID != "" {
		row.meetingTitle, row.committee = s.meetings[i].Title, s.meetings[i].Committee
	}
	return row
}

// listActions returns up to limit actions with the given status (any when
// empty) that come after the action with ID after (from the start when
// empty). more reports whether further matching actions follow the last
// one returned. known is false when after names no action: the cursor is
// stale or forged.
func (s *store) listActions(status, after string, limit int) (rows []actionRow, more, known bool) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	start := 0
	if after != "" {
		i, ok := s.actionIndex[after]
		if !ok {
			return nil, false, false
		}
		start = i + 1
	}
	// The cursor names the last action seen rather than an offset, so
	// actions that change status during a filtered walk do not shift the
	// pages and make the walk skip or repeat others.
	rows = []actionRow{}
	for _, a := range s.actions[start:] {
		if status != "" && a.Status != status {
			continue
		}
		if len(rows) == limit {
			return rows, true, true
		}
		rows = append(rows, s.rowLocked(a))
	}
	return rows, false, true
}

// updateActionStatus sets the status of action id and returns the updated
// row; ok is false when there is no such action.
func (s *store) updateActionStatus(id, status string) (row actionRow, ok bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	i, ok := s.actionIndex[id]
	if !ok {
		return actionRow{}, false
	}
	s.actions[i].Status = status
	return s.rowLocked(s.actions[i]), true
}

// listMeetings returns page number page (from 1) of the meetings, newest
// first, pageSize to a page; more reports whether another page follows.
func (s *store) listMeetings(page, pageSize int) (ms []Meeting, more bool) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	// Compare page numbers rather than offsets: (page-1)*pageSize
	// overflows for a page number a client may well send.
	if pages := (len(s.meetings) + pageSize - 1) / pageSize; page > pages {
		return nil, false
	}
	start := (page - 1) * pageSize
	end := min(start+pageSize, len(s.meetings))
	for _, m := range s.meetings[start:end] {
		ms = append(ms, cloneMeeting(m))
	}
	return ms, end < len(s.meetings)
}

// meetingLocked finds a meeting by ID or, failing that, by reference
// ignoring case, as people type references in any case.
func (s *store) meetingLocked(idOrRef string) (Meeting, bool) {
	if i, ok := s.meetingIndex[idOrRef]; ok {
		return s.meetings[i], true
	}
	for _, m := range s.meetings {
		if m.Reference != "" && strings.EqualFold(m.Reference, idOrRef) {
			return m, true
		}
	}
	return Meeting{}, false
}

func (s *store) meeting(idOrRef string) (Meeting, bool) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	m, ok := s.meetingLocked(idOrRef)
	return cloneMeeting(m), ok
}

// visibleMinutes returns the minutes of the meeting with that ID or
// reference, if they are in a status the API serves.
func (s *store) visibleMinutes(idOrRef string) (Minutes, bool) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	// Minutes may be stored for a meeting the server does not have; the
	// path then can only be the meeting ID itself.
	meetingID := idOrRef
	if m, ok := s.meetingLocked(idOrRef); ok {
		meetingID = m.ID
	}
	mins, ok := s.minutes[meetingID]
	if !ok || !minutesVisible(mins.Status) {
		return Minutes{}, false
	}
	return mins, true
}

// actionsAt returns up to limit actions with the given status (any when
// empty) from position offset of the filtered listing, and how many match
// in all: the paging of row APIs, which address pages by offset.
func (s *store) actionsAt(status string, offset, limit int) (rows []actionRow, total int) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	rows = []actionRow{}
	for _, a := range s.actions {
		if status != "" && a.Status != status {
			continue
		}
		if total >= offset && len(rows) < limit {
			rows = append(rows, s.rowLocked(a))
		}
		total++
	}
	return rows, total
}

// meetingsAt returns up to limit meetings from position offset, newest
// first, and how many there are in all.
func (s *store) meetingsAt(offset, limit int) (ms []Meeting, total int) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	ms = []Meeting{}
	for _, m := range s.meetings[min(offset, len(s.meetings)):min(offset+limit, len(s.meetings))] {
		ms = append(ms, cloneMeeting(m))
	}
	return ms, len(s.meetings)
}
