package bot

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"

	"github.com/recordsbot/recordsbot/internal/slackapi/slacktest"
)

func TestDecodeCommandText(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, sent, plain, arg string
		user                   string // UserID of the first word
	}{
		{"ampersand", "Audit &amp; Risk", "Audit & Risk", "Audit & Risk", ""},
		{"angle brackets", "a &lt;b&gt; c", "a <b> c", "a <b> c", ""},
		{"typed entity stays typed", "R&amp;amp;D", "R&amp;D", "R&amp;D", ""},
		{"mention", "<@U0BOB|bob> overdue", "@bob overdue", "@bob overdue", "U0BOB"},
		{"mention without name", "<@W0123ABC>", "@W0123ABC", "@W0123ABC", "W0123ABC"},
		{"channel", "<#C0123|general>", "#general", "#general", ""},
		{"email", "<mailto:a@b.org|a@b.org>", "a@b.org", "a@b.org", ""},
		{"auto-linked word", "<http://fin.2026|fin.2026>", "fin.2026", "fin.2026", ""},
		{"minutes link", "<https://bot.example.org/minutes/mtg_0342>", "https://bot.example.org/minutes/mtg_0342", "mtg_0342", ""},
		{"meeting link with escaped id", "<https://records.example.org/meetings/FIN%2F7|FIN/7>", "FIN/7", "FIN/7", ""},
		{"link with entity", "<https://x.example/?a=1&amp;b=2>", "https://x.example/?a=1&b=2", "https://x.example/?a=1&b=2", ""},
		{"quoted id", "`act-1`", "`act-1`", "act-1", ""},
		{"unclosed markup", "<@U1|x", "<@U1|x", "<@U1|x", ""},
		{"special mention", "<!subteam^S1|@finance>", "@finance", "@finance", ""},
		{"not a user ID", "<@0>", "@0", "@0", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got := decodeCommandText(tt.sent)
			assert.Equal(t, tt.plain, got.Plain)
			assert.Equal(t, tt.arg, got.argument())
			if len(got.Words) > 0 {
				assert.Equal(t, tt.user, got.Words[0].UserID)
			}
		})
	}
}

// FuzzDecodeCommandText checks that decoding undoes exactly what Slack
// does to typed text: whatever a user types, the bot reads it back as
// typed (whitespace runs aside), never decoded twice or not at all.
func FuzzDecodeCommandText(f *testing.F) {
	for _, s := range []string{
		"", "Audit & Risk", "R&D <b>", "&lt;", "&amp;amp;", "@bob overdue", "#general", "a@b.org.",
		"https://bot.example.org/minutes/mtg_1", "fin.org", "`x`", "<@U1|x>", "a\tb\nc",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, typed string) {
		if !utf8.ValidString(typed) {
			return // Slack sends UTF-8
		}
		sent := slacktest.EscapeCommandText(typed, nil)
		got := decodeCommandText(sent)
		want := strings.TrimSpace(strings.Map(func(r rune) rune {
			if r == '\t' || r == '\n' || r == '\r' {
				return ' '
			}
			return r
		}, typed))
		if got.Plain != want {
			t.Fatalf("typed %q, sent %q, decoded %q", typed, sent, got.Plain)
		}
	})
}

// A page's context names a positive offset or none (actionsQuery.context);
// anything else is refused like an unknown status, not read as the first
// page.
func TestParseContextRefusesAnOffsetItNeverWrites(t *testing.T) {
	t.Parallel()
	for _, bad := range []string{"o=x", "o=-3", "o=0", "s=all&o=1e3"} {
		_, ok := parseContext(bad)
		assert.False(t, ok, "parseContext(%q)", bad)
	}
	q, ok := parseContext("s=all&o=20")
	assert.True(t, ok)
	assert.Equal(t, 20, q.Offset)
}
