package doctor

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// doctor shows the next three holidays REMIND_HOLIDAYS gives, or why it
// could not read them.
func TestDoctorShowsNextHolidays(t *testing.T) {
	t.Parallel()
	ics := filepath.Join(t.TempDir(), "closures.ics")
	require.NoError(t, os.WriteFile(ics, []byte("BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nDTSTART;VALUE=DATE:20261225\r\nDTEND;VALUE=DATE:20261227\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"), 0o600))
	now := time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC)
	for _, tc := range []struct{ spec, want string }{
		{"2026-01-01, " + ics + ", 2027-01-01", "✓ REMIND_HOLIDAYS read: the next holidays are 2026-12-25, 2026-12-26, 2027-01-01"},
		{"2026-01-01", "✗ REMIND_HOLIDAYS read, but it holds no holiday from today on"},
		{"2026-12-25,boxing day", `✗ REMIND_HOLIDAYS entry "boxing day" is not a date (YYYY-MM-DD), a path or an http(s) URL of an iCalendar file`},
		{"/nowhere/closures.ics", `✗ REMIND_HOLIDAYS entry "/nowhere/closures.ics": read the iCalendar file: open /nowhere/closures.ics: no such file or directory`},
	} {
		rep := &Report{Sections: []section{{Title: secConfig}}}
		checkHolidays(t.Context(), Settings{Holidays: tc.spec}, now, rep)
		require.Len(t, rep.Sections[0].Checks, 1)
		c := rep.Sections[0].Checks[0]
		mark := map[bool]string{true: "✓ ", false: "✗ "}[c.Status == checkOK]
		assert.Equal(t, tc.want, mark+c.Text, tc.spec)
	}
}

// A calendar URL that cannot be read is a failed check, shown without
// the credentials in it.
func TestDoctorShowsAnUnreadableHolidaysURLWithoutCredentials(t *testing.T) {
	t.Parallel()
	rep := &Report{Sections: []section{{Title: secConfig}}}
	checkHolidays(t.Context(), Settings{Holidays: "2026-12-25,http://cal:hunter2@127.0.0.1:1/h.ics?token=s3cret"}, time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC), rep)
	require.Len(t, rep.Sections[0].Checks, 2)
	c := rep.Sections[0].Checks[0]
	assert.NotEqual(t, checkOK, c.Status)
	assert.Contains(t, c.Text, `REMIND_HOLIDAYS entry "http://…@127.0.0.1:1/h.ics?token=…": fetch:`)
	assert.NotContains(t, c.Text, "hunter2")
	assert.NotContains(t, c.Text, "s3cret")
	assert.Equal(t, "REMIND_HOLIDAYS read: the next holidays are 2026-12-25", rep.Sections[0].Checks[1].Text)
}
