package main

import (
	"bytes"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/recordsbot/recordsbot/internal/workdays"
	"github.com/recordsbot/recordsbot/store"
)

// A malformed REMIND_HOLIDAYS entry stops remind at start, naming it.
func TestRemindHolidaysMalformedStopsStart(t *testing.T) {
	t.Parallel()
	set := &settings{holidays: "2026-12-25, 2026-02-30"}
	_, err := loadHolidays(t.Context(), set, workdays.Loader{}, slog.New(slog.DiscardHandler))
	var ce *configError
	require.ErrorAs(t, err, &ce)
	assert.Equal(t, `REMIND_HOLIDAYS entry "2026-02-30" is not a date (YYYY-MM-DD)`, ce.msg)
}

// A calendar host that is down does not keep the bot down: it starts
// with the last good copy kept in the store and a warning that shows the
// URL without its credentials.
func TestRemindHolidaysHostDownStartsWithTheLastGoodCopy(t *testing.T) {
	t.Parallel()
	ics, err := os.ReadFile("../../internal/workdays/testdata/closures.ics")
	require.NoError(t, err)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write(ics) }))
	url := strings.Replace(srv.URL, "http://", "http://cal:hunter2@", 1) + "/closures.ics?token=s3cret"
	st, err := store.Open(t.Context(), "sqlite://"+filepath.Join(t.TempDir(), "recordsbot.db"))
	require.NoError(t, err)
	t.Cleanup(func() { st.Close() })
	set := &settings{holidays: "2026-12-24," + url}

	var logs bytes.Buffer
	log := slog.New(slog.NewTextHandler(&logs, nil))
	c, err := loadHolidays(t.Context(), set, workdays.Loader{Cache: st}, log)
	require.NoError(t, err)
	assert.True(t, c.Holiday(time.Date(2026, 12, 28, 0, 0, 0, 0, time.UTC)), "read from the host")
	assert.Empty(t, logs.String())

	srv.Close() // the host goes down
	c, err = loadHolidays(t.Context(), set, workdays.Loader{Cache: st}, log)
	require.NoError(t, err, "serve and remind start")
	assert.True(t, c.Holiday(time.Date(2026, 12, 28, 0, 0, 0, 0, time.UTC)), "from the copy in the store")
	assert.True(t, c.Holiday(time.Date(2026, 12, 24, 0, 0, 0, 0, time.UTC)))
	assert.Contains(t, logs.String(), "its last good copy is used")
	assert.NotContains(t, logs.String(), "hunter2")
	assert.NotContains(t, logs.String(), "s3cret")

	logs.Reset()
	c, err = loadHolidays(t.Context(), set, workdays.Loader{}, log)
	require.NoError(t, err, "no copy: start all the same")
	assert.Equal(t, 1, c.Len())
	assert.Contains(t, logs.String(), "there is no earlier copy")
}
