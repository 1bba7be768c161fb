package minutes_test

import (
	"bytes"
	"fmt"
	"log/slog"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/recordsbot/recordsbot/apiclient"
	"github.com/recordsbot/recordsbot/apiclient/recordstest"
	"github.com/recordsbot/recordsbot/minutes"
	"github.com/recordsbot/recordsbot/store"
)

// history is a records service with n past meetings, newest first a day
// apart, every third without published minutes, and one future meeting.
func history(t *testing.T, n int, committee func(i int) string) (*recordstest.Server, *apiclient.Client) {
	t.Helper()
	var d recordstest.Dataset
	d.Meetings = append(d.Meetings, recordstest.Meeting{ID: "future", Committee: "Finance", Date: now.AddDate(0, 0, 7)})
	d.Minutes = append(d.Minutes, recordstest.Minutes{MeetingID: "future", Status: "approved", Body: "Not yet held."})
	for i := range n {
		id := fmt.Sprintf("m%03d", i)
		d.Meetings = append(d.Meetings, recordstest.Meeting{ID: id, Title: id, Committee: committee(i), Date: now.AddDate(0, 0, -1-i)})
		status := "approved"
		if i%3 == 2 {
			status = "draft"
		}
		d.Minutes = append(d.Minutes, recordstest.Minutes{MeetingID: id, Status: status, Body: "Minutes " + id})
	}
	srv := recordstest.NewServer(recordstest.WithClock(func() time.Time { return now }), recordstest.WithDataset(d))
	t.Cleanup(srv.Close)
	rc, err := apiclient.NewClient(srv.URL, recordstest.DefaultKey)
	require.NoError(t, err)
	return srv, rc
}

func TestArchivePagesThroughEveryPublishedMinutes(t *testing.T) {
	t.Parallel()
	_, rc := history(t, 90, func(int) string { return "Finance" })
	svc := minutes.New(rc, minutes.Config{Now: func() time.Time { return now }})
	var ids []string
	cursor, pages := "", 0
	for {
		p, err := svc.Archive(t.Context(), "", cursor)
		require.NoError(t, err)
		assert.LessOrEqual(t, len(p.Entries), minutes.ArchivePageSize)
		for _, e := range p.Entries {
			require.True(t, minutes.Visible(e.Minutes))
			ids = append(ids, e.Meeting.ID)
		}
		pages++
		if cursor = p.Next; cursor == "" || pages > 20 {
			break
		}
	}
	require.Len(t, ids, 60, "every published minutes once: 2 in 3 of 90, not the future meeting")
	for i := 1; i < len(ids); i++ {
		assert.Less(t, ids[i-1], ids[i], "newest first, in the records' order")
	}
}

// A committee with few minutes among many meetings: a page reads a bounded
// part of the records and hands on a cursor, and the same page again
// within the TTL reads nothing.
func TestArchiveReadsABoundedPartOfTheRecords(t *testing.T) {
	t.Parallel()
	srv, rc := history(t, 200, func(i int) string {
		if i%50 == 0 {
			return "Audit"
		}
		return "Finance"
	})
	svc := minutes.New(rc, minutes.Config{Now: func() time.Time { return now }})
	p, err := svc.Archive(t.Context(), " audit ", "")
	require.NoError(t, err)
	assert.LessOrEqual(t, srv.Count(http.MethodGet, "/meetings"), 5+100, "at most 5 meeting pages and 100 minutes a page")
	assert.NotEmpty(t, p.Next, "the rest of the history is a page away")
	before := srv.Count("", "")
	_, err = svc.Archive(t.Context(), "Audit", "")
	require.NoError(t, err)
	assert.Equal(t, before, srv.Count("", ""), "the same page within the TTL is shared")

	var all []string
	for cursor := ""; ; {
		p, err := svc.Archive(t.Context(), "audit", cursor)
		require.NoError(t, err)
		for _, e := range p.Entries {
			all = append(all, e.Meeting.ID)
		}
		if cursor = p.Next; cursor == "" {
			break
		}
	}
	assert.Equal(t, []string{"m000", "m100", "m150"}, all, "one committee, matched by its key; m050's minutes are a draft not published")
}

func TestArchiveRefusesCursorsItDidNotMake(t *testing.T) {
	t.Parallel()
	_, rc := history(t, 3, func(int) string { return "Finance" })
	svc := minutes.New(rc, minutes.Config{})
	for _, c := range []string{"x", "eyJrIjotMX0", "%%%"} {
		_, err := svc.Archive(t.Context(), "", c)
		assert.ErrorIs(t, err, minutes.ErrBadCursor, "cursor %q", c)
	}
}

// TestVersionsNotKeptAreLogged: with a store that cannot be reached,
// minutes read for a page and for the archive are shown all the same,
// without their versions, and each failure is logged with its meeting.
func TestVersionsNotKeptAreLogged(t *testing.T) {
	t.Parallel()
	_, rc := history(t, 2, func(int) string { return "Finance" })
	st, err := store.Open(t.Context(), "sqlite::memory:")
	require.NoError(t, err)
	require.NoError(t, st.Close()) // the store goes away
	var logs bytes.Buffer
	svc := minutes.New(rc, minutes.Config{Now: func() time.Time { return now }, History: st,
		Log: slog.New(slog.NewTextHandler(&logs, nil))})

	e, err := svc.Read(t.Context(), "m000")
	require.NoError(t, err)
	require.NotNil(t, e.Minutes, "the minutes are shown")
	assert.Nil(t, e.Versions)
	assert.Contains(t, logs.String(), `msg="minutes: version not kept" meeting=m000`)

	logs.Reset()
	page, err := svc.Archive(t.Context(), "", "")
	require.NoError(t, err)
	require.Len(t, page.Entries, 2, "the archive lists the minutes")
	assert.Contains(t, logs.String(), `msg="minutes: version not kept" meeting=m001`)
	assert.Contains(t, logs.String(), `msg="minutes: versions not read for the archive"`)
}
