package minutes_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/recordsbot/recordsbot/apiclient"
	"github.com/recordsbot/recordsbot/apiclient/recordstest"
	"github.com/recordsbot/recordsbot/minutes"
)

// The minutes of a meeting the records withhold from the public
// (publication.Withheld) show on no public surface: not on their page or
// in an unfurl (Get), not in the archive or its feed (Archive), and their
// page is never linked (PublishedPage); published minutes are, once read.
func TestWithheldMeetingsMinutesAreNotPublished(t *testing.T) {
	t.Parallel()
	day := func(n int) time.Time { return now.AddDate(0, 0, n) }
	srv := recordstest.NewServer(recordstest.WithClock(func() time.Time { return now }), recordstest.WithDataset(recordstest.Dataset{
		Meetings: []recordstest.Meeting{
			{ID: "open", Title: "Open", Committee: "Finance", Date: day(-1)},
			{ID: "secret", Title: "Secret", Committee: "Finance", Date: day(-2), Confidential: true},
			{ID: "private", Title: "Private", Committee: "Finance", Date: day(-3), Visibility: "private"},
		},
		Minutes: []recordstest.Minutes{
			{MeetingID: "open", Status: "approved", Body: "Open."},
			{MeetingID: "secret", Status: "approved", Body: "Secret."},
			{MeetingID: "private", Status: "approved", Body: "Private."},
		},
	}))
	t.Cleanup(srv.Close)
	rc, err := apiclient.NewClient(srv.URL, recordstest.DefaultKey)
	require.NoError(t, err)
	svc := minutes.New(rc, minutes.Config{PublicURL: "https://bot.example.org", Public: true, Now: func() time.Time { return now }})
	ctx := t.Context()

	for _, id := range []string{"secret", "private"} {
		e, err := svc.Get(ctx, id)
		require.NoError(t, err)
		assert.Nil(t, e.Minutes, "%s: not shown", id)
		assert.Empty(t, svc.PublishedPage(e.Meeting), "%s: not linked", id)
	}
	p, err := svc.Archive(ctx, "", "")
	require.NoError(t, err)
	var ids []string
	for _, e := range p.Entries {
		ids = append(ids, e.Meeting.ID)
	}
	assert.Equal(t, []string{"open"}, ids, "the archive lists only what is published")

	m := &apiclient.Meeting{ID: "open", Committee: "Finance"}
	assert.Equal(t, "https://bot.example.org/minutes/open", svc.PublishedPage(m), "read, shown: linked")
	assert.Empty(t, svc.PublishedPage(&apiclient.Meeting{ID: "never-read"}), "not known to be shown: not linked")
}
