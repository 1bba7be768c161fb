package workdays_test

import (
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
)

func day(s string) time.Time {
	d, err := time.Parse(time.DateOnly, s)
	if err != nil {
		panic(err)
	}
	return d
}

func TestLoadDatesAndFile(t *testing.T) {
	t.Parallel()
	c, err := workdays.Load(t.Context(), "2026-12-24, testdata/closures.ics", nil)
	require.NoError(t, err)
	assert.Equal(t, []string{"2026-12-24", "2026-12-25", "2026-12-26"}, c.Next(day("2026-12-01"), 3))
	assert.Equal(t, []string{"2026-12-27", "2026-12-28", "2027-01-01"}, c.Next(day("2026-12-27"), 5), "DTEND is exclusive; one day without it")
	assert.Equal(t, 6, c.Len())
}

func TestLoadURLFetchedAtStart(t *testing.T) {
	t.Parallel()
	body, err := os.ReadFile("testdata/closures.ics")
	require.NoError(t, err)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/closures.ics" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/calendar")
		w.Write(body)
	}))
	t.Cleanup(srv.Close)
	c, err := workdays.Load(t.Context(), srv.URL+"/closures.ics", srv.Client())
	require.NoError(t, err)
	assert.True(t, c.Holiday(day("2026-12-28")))

	var warned []string
	c, err = workdays.Loader{Get: srv.Client(), Warn: func(url string, err error, _ time.Time) { warned = append(warned, url+": "+err.Error()) }}.
		Load(t.Context(), srv.URL+"/gone.ics")
	require.NoError(t, err, "a URL that cannot be read does not stop start-up")
	assert.Zero(t, c.Len())
	assert.Equal(t, []string{srv.URL + "/gone.ics: fetch: the server answered 404 Not Found"}, warned)
}

func TestLoadRefusesMalformedEntries(t *testing.T) {
	t.Parallel()
	notICS := filepath.Join(t.TempDir(), "notes.ics")
	require.NoError(t, os.WriteFile(notICS, []byte("hello\n"), 0o600))
	noDate := filepath.Join(t.TempDir(), "nodate.ics")
	require.NoError(t, os.WriteFile(noDate, []byte("BEGIN:VCALENDAR\nBEGIN:VEVENT\nSUMMARY:x\nEND:VEVENT\nEND:VCALENDAR\n"), 0o600))
	for spec, want := range map[string]string{
		"2026-12-32":              `entry "2026-12-32" is not a date`,
		"2026-12-25,christmas":    `entry "christmas" is not a date (YYYY-MM-DD), a path or an http(s) URL`,
		"/no/such/file.ics":       `entry "/no/such/file.ics": read the iCalendar file`,
		notICS:                    "not an iCalendar file",
		noDate:                    "the event at line 2 has no DTSTART date",
		"25/12/2026":              `entry "25/12/2026": read the iCalendar file`,
		"ftp://example.org/x.ics": `entry "ftp://example.org/x.ics"`,
	} {
		_, err := workdays.Load(t.Context(), spec, nil)
		assert.ErrorContains(t, err, want, spec)
	}
}

func TestNextWorking(t *testing.T) {
	t.Parallel()
	c, err := workdays.Load(t.Context(), "2026-12-07", nil)
	require.NoError(t, err)
	c.SkipWeekends = true
	auckland, err := time.LoadLocation("Pacific/Auckland")
	require.NoError(t, err)
	fri := time.Date(2026, 12, 4, 18, 0, 0, 0, auckland)
	assert.Equal(t, time.Date(2026, 12, 8, 0, 0, 0, 0, auckland), c.NextWorking(fri), "across the weekend and Monday's holiday, in the person's zone")
	c.SkipWeekends = false
	assert.Equal(t, time.Date(2026, 12, 5, 0, 0, 0, 0, auckland), c.NextWorking(fri), "weekends count")
	assert.False(t, c.Working(time.Date(2026, 12, 7, 9, 0, 0, 0, auckland)))
}

// FuzzParse: no iCalendar file, however broken, panics the parser or
// makes it hang; what it accepts has only dates.
func FuzzParse(f *testing.F) {
	body, err := os.ReadFile("testdata/closures.ics")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(string(body))
	f.Add("BEGIN:VCALENDAR\nBEGIN:VEVENT\nDTSTART:20260101T100000Z\nDTEND:20990101\nEND:VEVENT\n")
	f.Add("BEGIN:VCALENDAR\n BEGIN")
	f.Fuzz(func(t *testing.T, s string) {
		c, err := workdays.Parse(strings.NewReader(s))
		if err != nil {
			return
		}
		for _, d := range c.Next(time.Time{}, c.Len()) {
			if _, err := time.Parse(time.DateOnly, d); err != nil {
				t.Fatalf("holiday %q is not a date", d)
			}
		}
	})
}

// TestAdd closes a day in a loaded calendar and in the copies already
// handed out (the bot's and the reminders'); a zero calendar and a day
// that is not a date are refused.
func TestAdd(t *testing.T) {
	t.Parallel()
	c, err := workdays.Load(t.Context(), "", nil)
	require.NoError(t, err)
	c.SkipWeekends = true
	handedOut := c
	require.NoError(t, c.Add("2026-11-30"))
	assert.True(t, handedOut.Holiday(day("2026-11-30")), "a copy sees the day added")
	assert.Equal(t, day("2026-12-01"), handedOut.NextWorking(day("2026-11-27")), "Friday's next working day skips the weekend and Monday")
	assert.Equal(t, 1, handedOut.Len())
	assert.Error(t, c.Add("30 Nov"))
	assert.Error(t, workdays.Calendar{}.Add("2026-11-30"), "a zero calendar has nowhere to keep it")
}
