package bot

import (
	"strings"
	"testing"
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
