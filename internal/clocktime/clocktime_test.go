package clocktime_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/recordsbot/recordsbot/internal/clocktime"
)

func TestParse(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		in, want string
	}{
		{"09:00", "09:00"},
		{"9:00", "09:00"}, // what store.CheckRemindAt used to refuse
		{" 23:59 ", "23:59"},
		{"00:00", "00:00"},
		{"0:05", "00:05"},
	} {
		got, err := clocktime.Parse(tc.in)
		require.NoError(t, err, tc.in)
		assert.Equal(t, tc.want, got.String(), tc.in)
		assert.False(t, got.IsZero(), tc.in)
	}
	for _, in := range []string{"", "9", "24:00", "12:60", "9:5", "09:000", "009:00", "+9:00", "-0:00", "9h00", "09:00pm", "nine", "１２:００"} {
		_, err := clocktime.Parse(in)
		assert.ErrorContains(t, err, "is not a time of day such as 09:00", "%q", in)
	}
}

func TestTimeZeroIsNotMidnight(t *testing.T) {
	t.Parallel()
	var unset clocktime.Time
	assert.True(t, unset.IsZero())
	assert.Equal(t, "", unset.String())
	assert.Equal(t, "07:30", unset.Or(clocktime.Of(7, 30)).String())
	assert.Equal(t, "00:00", clocktime.Of(0, 0).Or(clocktime.Of(7, 30)).String(), "midnight is a choice")
}

func TestOn(t *testing.T) {
	t.Parallel()
	ny, err := time.LoadLocation("America/New_York")
	require.NoError(t, err)
	day := time.Date(2026, 3, 8, 12, 0, 0, 0, ny) // spring forward at 02:00
	assert.Equal(t, time.Date(2026, 3, 8, 9, 0, 0, 0, ny), clocktime.Of(9, 0).On(day))
}

func TestParseWeekly(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		in, want string
		ok       bool
	}{
		{"mon 09:00", "mon 09:00", true},
		{"Friday 16:30", "fri 16:30", true},
		{"tues 9:00", "tue 09:00", true},
		{"off", "off", true},
		{" OFF ", "off", true},
		{"mon 9", "", false},
		{"mon 24:00", "", false},
		{"moon 09:00", "", false},
		{"mo 09:00", "", false},
		{"mondays 09:00", "", false},
		{"", "", false},
		{"mon 09:00 extra", "", false},
	} {
		got, err := clocktime.ParseWeekly(tc.in)
		if !tc.ok {
			assert.Error(t, err, tc.in)
			continue
		}
		require.NoError(t, err, tc.in)
		assert.Equal(t, tc.want, got.String())
	}
}

func TestSlot(t *testing.T) {
	t.Parallel()
	w := clocktime.Weekly{On: true, Day: time.Monday, At: clocktime.Of(9, 0)}
	mon := time.Date(2026, 11, 23, 9, 0, 0, 0, time.UTC)
	assert.Equal(t, mon, w.Slot(mon, time.UTC), "at the slot")
	assert.Equal(t, mon.AddDate(0, 0, -7), w.Slot(mon.Add(-time.Minute), time.UTC), "just before: last week's")
	assert.Equal(t, mon, w.Slot(mon.AddDate(0, 0, 6), time.UTC), "on Sunday: Monday's")
}

// FuzzParse: whatever is typed, Parse either refuses it or returns a time
// whose String parses back to itself, and ParseWeekly's answer, when
// there is one, writes and reads back the same.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"09:00", "9:00", "23:59", "24:00", "", ":", "1:1", "mon 09:00", "off", "friday 9:30", "٠٩:٠٠"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if c, err := clocktime.Parse(s); err == nil {
			if c.IsZero() || c.Hour() > 23 || c.Minute() > 59 {
				t.Fatalf("Parse(%q) = %v, out of range", s, c)
			}
			back, err := clocktime.Parse(c.String())
			if err != nil || back != c {
				t.Fatalf("Parse(%q).String() = %q reads back as %v, %v", s, c.String(), back, err)
			}
		}
		if w, err := clocktime.ParseWeekly(s); err == nil {
			back, err := clocktime.ParseWeekly(w.String())
			if err != nil || back != w {
				t.Fatalf("ParseWeekly(%q).String() = %q reads back as %v, %v", s, w.String(), back, err)
			}
		}
	})
}
