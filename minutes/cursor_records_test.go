package minutes

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/recordsbot/recordsbot/apiclient"
	"github.com/recordsbot/recordsbot/apiclient/recordstest"
)

// A cursor the bot signed is still request text: the records' next-page
// token inside it is checked as every token is, so one carrying "..;"
// segments (which Tomcat and Jetty resolve as "..") reaches no records
// endpoint, however valid its signature.
func TestSignedCursorIsCheckedLikeAnyRequestText(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC)
	srv := recordstest.NewServer(recordstest.WithClock(func() time.Time { return now }))
	t.Cleanup(srv.Close)
	rc, err := apiclient.NewClient(srv.URL, recordstest.DefaultKey)
	require.NoError(t, err)
	svc := New(rc, Config{Now: func() time.Time { return now }, CursorKey: CursorKey("sk_test")})

	for _, next := range []string{
		"/api/v1/meetings/..;/actions?limit=500",
		"/api/v1/meetings/..;x/..;/admin",
		"/api/v1/meetings/%2e%2e%3b/actions",
	} {
		cursor := svc.cursors.seal(archiveCursor{Next: next}, "", now)
		require.NotEmpty(t, cursor)
		_, err := svc.Archive(t.Context(), "", cursor)
		assert.ErrorIs(t, err, apiclient.ErrBadRequest, "next %q", next)
	}
	assert.Empty(t, srv.Requests(), "no records call")
}
