package minutes

import (
	"context"

	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/recordsbot/recordsbot/apiclient"
	"github.com/recordsbot/recordsbot/apiclient/recordstest"
	"github.com/recordsbot/recordsbot/store"
)

var searchNow = time.Date(2026, 6, 1, 12, 0, 0, 0, time.UTC)

// searchWorld is a records service with n past meetings of the Finance
// Committee, each with approved minutes mentioning the budget, one future
// meeting, and meetings whose minutes are not visible.
func searchWorld(t *testing.T, n int) (*recordstest.Server, *apiclient.Client, *store.Store) {
	t.Helper()
	var ds recordstest.Dataset
	for i := range n {
		id := fmt.Sprintf("m%02d", i)
		ds.Meetings = append(ds.Meetings, recordstest.Meeting{ID: id, Title: fmt.Sprintf("Finance %d", i), Committee: "Finance Committee", Date: searchNow.AddDate(0, 0, -7*(i+1))})
		ds.Minutes = append(ds.Minutes, recordstest.Minutes{MeetingID: id, Status: "approved", Body: fmt.Sprintf("## Budget\n\nThe **budgets** for item %d were approved.", i)})
	}
	ds.Meetings = append(ds.Meetings,
		recordstest.Meeting{ID: "future", Title: "Finance to come", Committee: "Finance Committee", Date: searchNow.AddDate(0, 0, 7)},
		recordstest.Meeting{ID: "hidden", Title: "Finance in review", Committee: "Finance Committee", Date: searchNow.AddDate(0, 0, -1)},
		recordstest.Meeting{ID: "none", Title: "Finance without minutes", Committee: "Finance Committee", Date: searchNow.AddDate(0, 0, -2)})
	ds.Minutes = append(ds.Minutes, recordstest.Minutes{MeetingID: "hidden", Status: "in_review", Body: "Secret budget cuts."})
	rs := recordstest.NewServer(recordstest.WithDataset(ds), recordstest.WithPageSize(3))
	t.Cleanup(rs.Close)
	c, err := apiclient.NewClient(rs.URL, recordstest.DefaultKey, apiclient.WithRetry(0, 0, 0))
	require.NoError(t, err)
	s, err := store.Open(t.Context(), "sqlite::memory:")
	require.NoError(t, err)
	t.Cleanup(func() { _ = s.Close() })
	return rs, c, s
}

func newBackfill(c *apiclient.Client, s *store.Store, sleeps *[]time.Duration) *Backfill {
	return &Backfill{Records: c, Index: s, State: s, Now: func() time.Time { return searchNow },
		Sleep: func(ctx context.Context, d time.Duration) error {
			*sleeps = append(*sleeps, d)
			return ctx.Err()
		}}
}

func find(t *testing.T, s *store.Store, typed string) []string {
	t.Helper()
	page, err := s.SearchMinutes(t.Context(), ParseQuery(typed), 0, 50)
	require.NoError(t, err)
	var ids []string
	for _, h := range page.Hits {
		ids = append(ids, h.MeetingID)
	}
	return ids
}

func TestBackfillIndexesHistoryOnceAtItsPace(t *testing.T) {
	t.Parallel()
	rs, c, s := searchWorld(t, 7)
	var sleeps []time.Duration
	b := newBackfill(c, s, &sleeps)
	wait, err := b.Pass(t.Context())
	require.NoError(t, err)
	assert.Equal(t, 24*time.Hour, wait, "the next pass in a day")

	assert.Len(t, find(t, s, "budget"), 7, "every visible minutes found, stemmed")
	assert.NotContains(t, find(t, s, "secret"), "hidden", "minutes in review never indexed")
	// One read per past meeting (7 + hidden + none), none for the future
	// meeting, plus the meetings pages: 10 meetings, 3 a page.
	assert.Equal(t, 9, rs.Count("GET", "/meetings/m")+rs.Count("GET", "/meetings/hidden")+rs.Count("GET", "/meetings/none"))
	assert.Zero(t, rs.Count("GET", "/meetings/future"))
	pages := 4
	assert.Equal(t, pages, len(rs.Requests())-9, "meetings pages")
	require.Len(t, sleeps, pages+9, "one pause before each records call")
	for _, d := range sleeps {
		assert.Equal(t, time.Second, d, "the default pace: a call a second")
	}

	cur, err := ReadBackfillCursor(t.Context(), s)
	require.NoError(t, err)
	assert.Equal(t, searchNow, cur.DoneAt.UTC())
	// Between passes /metrics says what the finished pass read, as its
	// log line did, not 0.
	gotPages, gotRead, doneAt := b.Progress()
	assert.Equal(t, pages, gotPages, "the last whole pass's meetings pages")
	assert.Equal(t, 9, gotRead, "the last whole pass's minutes reads")
	assert.Equal(t, searchNow, doneAt.UTC())
	wait, err = b.Pass(t.Context())
	require.NoError(t, err)
	gotPages, gotRead, _ = b.Progress()
	assert.Equal(t, []int{pages, 9}, []int{gotPages, gotRead}, "still the last pass's counts after a pass that had nothing to do")
	assert.Equal(t, 24*time.Hour, wait, "done: nothing until the day is out")
	assert.Len(t, rs.Requests(), pages+9, "no reads before then")
}

func TestBackfillResumesWhereItStopped(t *testing.T) {
	t.Parallel()
	rs, c, s := searchWorld(t, 7)
	var sleeps []time.Duration
	b := newBackfill(c, s, &sleeps)
	// The records service fails on the fifth minutes read.
	rs.InjectFault(recordstest.Fault{Method: "GET", PathPrefix: "/meetings/m03", Status: 503, Times: 1})
	_, err := b.Pass(t.Context())
	require.ErrorIs(t, err, apiclient.ErrUnavailable)
	before := len(find(t, s, "budget"))
	assert.Equal(t, 3, before, "what was read before the failure is indexed")

	b2 := newBackfill(c, s, &sleeps)
	_, err = b2.Pass(t.Context())
	require.NoError(t, err)
	assert.Len(t, find(t, s, "budget"), 7)
	for _, id := range []string{"m00", "m01", "m02", "hidden", "none"} {
		assert.Equal(t, 1, rs.Count("GET", "/meetings/"+id+"/minutes"), "%s read once across the restart", id)
	}
	assert.Equal(t, 2, rs.Count("GET", "/meetings/m03/minutes"), "the failed read and its retry")
}

func TestApplyRemovesMinutesThatStopBeingVisible(t *testing.T) {
	t.Parallel()
	rs, c, s := searchWorld(t, 2)
	ctx := t.Context()
	m := &apiclient.Meeting{ID: "m00", Title: "Finance 0", Committee: "Finance Committee", Date: searchNow}
	min, err := c.GetMinutes(ctx, "m00")
	res, aerr := Apply(ctx, s, m, min, err)
	require.NoError(t, aerr)
	assert.Equal(t, Added, res)
	assert.Equal(t, []string{"m00"}, find(t, s, "item 0"))

	// The minutes go back into review: the next read is a 404.
	rs.SetMinutes(recordstest.Minutes{MeetingID: "m00", Status: "in_review", Body: "The budgets for item 0 were approved."})
	min, err = c.GetMinutes(ctx, "m00")
	require.ErrorIs(t, err, apiclient.ErrNotFound)
	res, aerr = Apply(ctx, s, m, min, err)
	require.NoError(t, aerr)
	assert.Equal(t, Removed, res)
	assert.Empty(t, find(t, s, "item 0"))

	// A leaky server sends hidden minutes with a 200: still never indexed.
	rs.InjectFault(recordstest.Fault{Method: "GET", PathPrefix: "/meetings/m00/minutes",
		Body: `{"meeting_id": "m00", "status": "draft", "body": "Leaked budget talk."}`})
	min, err = c.GetMinutes(ctx, "m00")
	res, aerr = Apply(ctx, s, m, min, err)
	require.NoError(t, aerr)
	assert.Equal(t, Removed, res)
	assert.Empty(t, find(t, s, "leaked"))

	// A failed read changes nothing.
	res, aerr = Apply(ctx, s, m, nil, fmt.Errorf("read: %w", apiclient.ErrUnavailable))
	require.NoError(t, aerr)
	assert.Equal(t, Unchanged, res)
	// Minutes whose status is not visible are refused whoever passes them.
	res, aerr = Apply(ctx, s, m, &apiclient.Minutes{Status: "draft", Body: "budget"}, nil)
	require.NoError(t, aerr)
	assert.Equal(t, Removed, res)
}

// TestDocText: the index holds the minutes as a reader sees them, with
// the reading of the Slack text (body.PlainText): Markdown rendered
// (tables and strikethrough too), HTML stripped, text that only looks
// like a tag kept, scripts dropped.
func TestDocText(t *testing.T) {
	t.Parallel()
	m := &apiclient.Meeting{ID: "m1", Title: "Finance"}
	for _, c := range []struct {
		name, body string
		format     apiclient.BodyFormat
		want       string
	}{
		{"markdown", "# Finance\n\n**Present:** Ana, [Ben](https://x.example)\n\n- one\n- two\n\n> Draft minutes\n\n" +
			"~~deferred~~ agreed, <minor> changes\n\n| Item | Cost |\n|---|---|\n| Cover | £4,200 |", apiclient.FormatMarkdown,
			"Finance\n\nPresent: Ana, Ben\n\none\n\ntwo\n\nDraft minutes\n\ndeferred agreed, <minor> changes\n\nItem · Cost\n\nCover · £4,200"},
		{"html", "<h1>Finance</h1><p>Budget &amp; <b>insurance</b></p><ul><li>a<ul><li>b</li></ul></li></ul><script>x()</script>", apiclient.FormatHTML,
			"Finance\n\nBudget & insurance\n\na\n\nb"},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			doc := Doc(m, &apiclient.Minutes{Status: "approved", Body: c.body, Format: c.format})
			assert.Equal(t, c.want, doc.Body)
		})
	}
}

func TestBackfillOneReplicaAtATime(t *testing.T) {
	t.Parallel()
	rs, c, s := searchWorld(t, 3)
	var sleeps []time.Duration
	got, err := s.TryLock(t.Context(), BackfillState, "other-replica", time.Hour)
	require.NoError(t, err)
	require.True(t, got)
	b := newBackfill(c, s, &sleeps)
	b.Owner = "this-replica"
	wait, err := b.Pass(t.Context())
	require.NoError(t, err)
	assert.Equal(t, backfillLockTTL, wait, "tries again when the lock may have lapsed")
	assert.Empty(t, rs.Requests(), "nothing read while another replica backfills")
}

func TestBackfillStartsOverFromAnUnreadableCursor(t *testing.T) {
	t.Parallel()
	_, c, s := searchWorld(t, 3)
	require.NoError(t, s.SetState(t.Context(), BackfillState, `{"next":`))
	_, err := ReadBackfillCursor(t.Context(), s)
	require.ErrorIs(t, err, ErrBackfillCursor, "said, not read as a fresh start")

	var sleeps []time.Duration
	_, err = newBackfill(c, s, &sleeps).Pass(t.Context())
	require.NoError(t, err, "the pass starts over")
	assert.Len(t, find(t, s, "budget"), 3)
	cur, err := ReadBackfillCursor(t.Context(), s)
	require.NoError(t, err, "and keeps a readable cursor")
	assert.Equal(t, searchNow, cur.DoneAt.UTC())
}
