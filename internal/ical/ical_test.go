package ical

import (
	"bytes"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/recordsbot/recordsbot/internal/ical/icaltest"
	"github.com/recordsbot/recordsbot/internal/invisible"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func sample() *Calendar {
	stamp := time.Date(2026, 11, 20, 9, 30, 0, 0, time.UTC)
	return &Calendar{
		ProdID:          "-//recordsbot//Meetings//EN",
		Name:            "Finance, Audit; and Risk",
		RefreshInterval: time.Hour,
		Events: []Event{
			{
				UID: "meeting-m1@bot.example.org", Sequence: 2, Stamp: stamp,
				Start:    time.Date(2026, 12, 1, 17, 0, 0, 0, time.FixedZone("CET", 3600)),
				Summary:  "Finance Committee: Budget, Q3; \\ review\nsecond line",
				Location: "Room 2", URL: "https://bot.example.org/minutes/m1",
				Description: strings.Repeat("Ünïcödé 会议 ", 20), Categories: []string{"Finance"},
			},
			{UID: "action-a1@bot.example.org", Stamp: stamp, Start: time.Date(2026, 12, 3, 0, 0, 0, 0, time.UTC), AllDay: true, Summary: "Circulate the forecast"},
		},
	}
}

func TestEncode(t *testing.T) {
	t.Parallel()
	got := string(sample().Encode())
	for _, want := range []string{
		"BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//recordsbot//Meetings//EN\r\n",
		"NAME:Finance\\, Audit\\; and Risk\r\n",
		"REFRESH-INTERVAL;VALUE=DURATION:PT1H\r\n",
		"UID:meeting-m1@bot.example.org\r\nDTSTAMP:20261120T093000Z\r\nSEQUENCE:2\r\nDTSTART:20261201T160000Z\r\n",
		"SUMMARY:Finance Committee: Budget\\, Q3\\; \\\\ review\\nsecond line\r\n",
		"DTSTART;VALUE=DATE:20261203\r\nDTEND;VALUE=DATE:20261204\r\n",
		"END:VCALENDAR\r\n",
	} {
		assert.Contains(t, got, want)
	}
	assert.True(t, strings.HasSuffix(got, "END:VCALENDAR\r\n"))
	checkLines(t, got)
}

// checkLines asserts RFC 5545 §3.1 of every physical line: CRLF only, at
// most 75 octets, valid UTF-8 on its own.
func checkLines(t *testing.T, s string) {
	t.Helper()
	require.True(t, strings.HasSuffix(s, "\r\n"), "ends with CRLF")
	lines := strings.Split(strings.TrimSuffix(s, "\r\n"), "\r\n")
	for _, l := range lines {
		assert.NotContains(t, l, "\r", "bare CR")
		assert.NotContains(t, l, "\n", "bare LF")
		assert.LessOrEqual(t, len(l), 75, "line %q", l)
		assert.True(t, utf8.ValidString(l), "line %q split inside a UTF-8 sequence", l)
	}
}

// unfold undoes Fold (§3.1): CRLF followed by one space or tab goes.
func unfold(s string) string {
	return strings.NewReplacer("\r\n ", "", "\r\n\t", "").Replace(s)
}

// unescape undoes Text.
func unescape(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) {
			i++
			if s[i] == 'n' || s[i] == 'N' {
				b.WriteByte('\n')
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

func TestFoldBoundaries(t *testing.T) {
	t.Parallel()
	for _, s := range []string{"", "a", strings.Repeat("a", 75), strings.Repeat("a", 76), strings.Repeat("é", 100), strings.Repeat("😀", 40), "x" + strings.Repeat("会", 60)} {
		var b bytes.Buffer
		Fold(&b, s)
		checkLines(t, b.String())
		assert.Equal(t, s, strings.TrimSuffix(unfold(b.String()), "\r\n"))
	}
}

// A calendar carries no bidi, zero-width or line-separator character:
// subscribers' clients would reorder, hide or break the text on them.
func TestTextCleansInvisibleCharacters(t *testing.T) {
	t.Parallel()
	c := Calendar{ProdID: "-//t//EN", Name: "A\u202eB", Events: []Event{{UID: "u\u200b1", Start: time.Unix(0, 0), Stamp: time.Unix(0, 0),
		Summary: "gnp\u202e.exe", Location: "Room\u20282", Description: "a\u0085b\u2029c", Categories: []string{"Fin\u2066ance"}, URL: "https://x/\u200e"}}}
	out := string(c.Encode())
	for _, r := range []rune{0x202e, 0x200b, 0x2028, 0x0085, 0x2029, 0x2066, 0x200e} {
		assert.NotContains(t, out, string(r), "U+%04X", r)
	}
	assert.Contains(t, out, "SUMMARY:gnp.exe\r\n")
	assert.Contains(t, out, "LOCATION:Room 2\r\n", "a line separator is a space")
}

// FuzzTextFold checks escaping and folding together: whatever the text, the
// lines keep to §3.1 and unfolding and unescaping give back the text less
// what TEXT may not hold.
func FuzzTextFold(f *testing.F) {
	for _, s := range []string{"", "plain", "a,b;c\\d\ne", "\r\n\r", strings.Repeat("é", 80), "\x00\x7f\t", "\xff\xfe", "\ufffd", "会议 ; , \\n", "\u202egnp.exe\u200b\u2028x\u0085y\u2029"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var b bytes.Buffer
		Fold(&b, "SUMMARY:"+Text(s))
		out := b.String()
		checkLines(t, out)
		got := unescape(strings.TrimSuffix(strings.TrimPrefix(unfold(out), "SUMMARY:"), "\r\n"))
		assert.False(t, strings.ContainsFunc(out, invisible.Is), "the format's one cleaning rule: %q", out)
		want := strings.ReplaceAll(strings.ReplaceAll(invisible.Strip(strings.ToValidUTF8(s, "")), "\r\n", "\n"), "\r", "\n")
		want = strings.Map(func(r rune) rune {
			switch {
			case r == '\t':
				return ' '
			case r == '\n':
				return r
			case r < 0x20 || r == 0x7f:
				return -1
			}
			return r
		}, want)
		if got != want {
			t.Fatalf("round trip of %q: got %q, want %q", s, got, want)
		}
	})
}

// TestPythonIcalendar reads the calendar with Debian's python3-icalendar,
// a parser this package shares nothing with. .ci/run installs it.
func TestPythonIcalendar(t *testing.T) {
	t.Parallel()
	events := icaltest.PythonEvents(t, sample().Encode())
	require.Len(t, events, 2)
	assert.Equal(t, "meeting-m1@bot.example.org", events[0]["uid"])
	assert.Equal(t, "Finance Committee: Budget, Q3; \\ review\nsecond line", events[0]["summary"])
	assert.Equal(t, strings.Repeat("Ünïcödé 会议 ", 20), events[0]["description"])
	assert.Equal(t, "2026-12-01T16:00:00+00:00", events[0]["start"])
	assert.EqualValues(t, 2, events[0]["sequence"])
	assert.Equal(t, "2026-12-03", events[1]["start"])
}

// TestICALJS imports the calendar with Mozilla's ical.js, the calendar
// engine of Thunderbird, and node-ical (tools/publiccheck).
func TestICALJS(t *testing.T) {
	t.Parallel()
	events := icaltest.NodeEvents(t, sample().Encode())
	require.Len(t, events, 2)
	assert.Equal(t, "Finance Committee: Budget, Q3; \\ review\nsecond line", events[0]["summary"])
	assert.Equal(t, "2026-12-01T16:00:00Z", events[0]["start"])
	assert.Equal(t, "2026-12-03", events[1]["start"])
	assert.Equal(t, true, events[1]["allDay"])
}
