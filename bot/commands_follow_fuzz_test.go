package bot

import (
	"strings"
	"testing"

	"github.com/recordsbot/recordsbot/internal/clocktime"
	"github.com/recordsbot/recordsbot/internal/lang"
)

// FuzzFollowText: whatever Slack sends after /minutes, parseFollow either
// leaves it to /minutes or yields a follow verb and a committee name
// without surrounding space, and matchCommittee never picks a committee
// the text does not name.
func FuzzFollowText(f *testing.F) {
	for _, seed := range []string{
		"follow Finance", "FOLLOW fin", "unfollow Audit &amp; Risk", "following", "follow",
		"follow \"Finance\"", "follow <@U0BOB|bob>", "follow <https://x.example/minutes/m1|m1>", "Finance", "follow  f ",
	} {
		f.Add(seed, "Finance\nFacilities\nAudit & Risk\nfinance")
	}
	f.Fuzz(func(t *testing.T, sent, committees string) {
		verb, name, ok := parseFollow(decodeCommandText(sent))
		if !ok {
			if verb != "" || name != "" {
				t.Fatalf("parseFollow(%q) = %q, %q with ok false", sent, verb, name)
			}
			return
		}
		if verb != "follow" && verb != "unfollow" && verb != "following" {
			t.Fatalf("parseFollow(%q): verb %q", sent, verb)
		}
		if name != strings.TrimSpace(name) {
			t.Fatalf("parseFollow(%q): name %q has surrounding space", sent, name)
		}
		names := strings.Split(committees, "\n")
		got, ambiguous := matchCommittee(names, name)
		switch {
		case got != "" && len(ambiguous) > 0:
			t.Fatalf("matchCommittee(%q): both %q and ambiguous %q", name, got, ambiguous)
		case got != "" && !strings.EqualFold(got, name) && !committeeMatches(got, name):
			t.Fatalf("matchCommittee(%q) = %q, which it does not name", name, got)
		case len(ambiguous) == 1:
			t.Fatalf("matchCommittee(%q): one ambiguous name %q should be the match", name, ambiguous)
		}
		for _, a := range ambiguous {
			if !committeeMatches(a, name) {
				t.Fatalf("matchCommittee(%q): ambiguous %q does not match", name, a)
			}
		}
	})
}

// FuzzFollowOptions: whatever follows /minutes follow, splitFollowOptions
// either says what it did not understand or yields a committee name
// without surrounding space, a digest slot that reads back as itself, and
// a language that is shipped.
func FuzzFollowOptions(f *testing.F) {
	for _, seed := range []string{
		"Finance", "Finance language de", "Finance digest mon 09:00", "Finance language fr digest fri 16:30 mentions",
		"Finance digest off language es", "Welsh Language Board", "Finance language xx", "Finance digest someday",
		"language de", "Finance digest", "\"Finance\" language DE", "Finance language default",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, typed string) {
		opts, bad := splitFollowOptions(lang.English, typed)
		if bad != "" {
			return
		}
		if opts.language != nil && !opts.language.orgDefault && opts.language.lang.Code() == "" {
			t.Fatalf("splitFollowOptions(%q): an unnamed language", typed)
		}
		if opts.digest != nil && opts.digest.Schedule != nil && opts.digest.Schedule.On {
			if _, err := clocktime.ParseWeekly(opts.digest.Schedule.String()); err != nil {
				t.Fatalf("splitFollowOptions(%q): slot %v does not read back: %v", typed, opts.digest.Schedule, err)
			}
		}
		if opts.name != strings.TrimSpace(opts.name) {
			t.Fatalf("splitFollowOptions(%q): name %q has surrounding space", typed, opts.name)
		}
	})
}
