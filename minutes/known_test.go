package minutes_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/recordsbot/recordsbot/apiclient/recordstest"
	"github.com/recordsbot/recordsbot/minutes"
)

// The meetings and committees the domain holds answer a lookup without a
// records call once the list is read: one read for both, kept for the
// cache's time, and a failed read kept for OutageTTL.
func TestKnownMeetingsAndCommittees(t *testing.T) {
	t.Parallel()
	srv, rc := world(t)
	svc := minutes.New(rc, minutes.Config{Now: func() time.Time { return now }})
	ctx := t.Context()
	for _, tt := range []struct {
		name string
		ask  func() (minutes.Known, error)
		want minutes.Known
	}{
		{"a meeting", func() (minutes.Known, error) { return svc.KnownMeeting(ctx, "gov-1") }, minutes.KnownYes},
		{"no meeting", func() (minutes.Known, error) { return svc.KnownMeeting(ctx, "nope") }, minutes.KnownNo},
		{"a committee", func() (minutes.Known, error) { return svc.KnownCommittee(ctx, "governance") }, minutes.KnownYes},
		{"the start of one", func() (minutes.Known, error) { return svc.KnownCommittee(ctx, " Fin") }, minutes.KnownYes},
		{"one without minutes", func() (minutes.Known, error) { return svc.KnownCommittee(ctx, "HR") }, minutes.KnownYes},
		{"none", func() (minutes.Known, error) { return svc.KnownCommittee(ctx, "Planning") }, minutes.KnownNo},
		{"nothing typed", func() (minutes.Known, error) { return svc.KnownCommittee(ctx, "") }, minutes.KnownYes},
	} {
		got, err := tt.ask()
		require.NoError(t, err, tt.name)
		assert.Equal(t, tt.want, got, tt.name)
	}
	assert.Equal(t, 2, srv.Count("GET", "/meetings"), "the list read once (two pages of five)")

	down := minutes.New(rc, minutes.Config{Now: func() time.Time { return now }})
	srv.InjectFault(recordstest.Fault{PathPrefix: "/meetings", Status: http.StatusServiceUnavailable, Times: 100})
	got, err := down.KnownCommittee(ctx, "Planning")
	assert.Error(t, err)
	assert.Equal(t, minutes.KnownMaybe, got, "a list that cannot be read says nothing")
	srv.ClearFaults()
	srv.ResetRequests()
	got, _ = down.KnownCommittee(ctx, "Planning")
	assert.Equal(t, minutes.KnownMaybe, got, "the failed read is kept")
	assert.Zero(t, srv.Count("GET", "/meetings"), "for OutageTTL: no read per lookup")
}
