package blocks

import (
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/recordsbot/recordsbot/internal/lang"
)

func sampleDigest() Digest {
	return Digest{
		Committee: "Finance & <Audit>", CommitteeKey: "finance & <audit>",
		Since: day(2026, 2, 23),
		Groups: []DigestGroup{
			{Name: "Bob Patel", Items: []DigestItem{
				{ID: "A-2", Title: "Chase the *auditors*", Deadline: day(2026, 2, 27), Overdue: true},
				{ID: "A-3", Title: "Book the hall", InProgress: true},
			}},
			{Name: "Alice Jones", Mention: "U0ALICE", Items: []DigestItem{
				{ID: "A-1", Title: "Circulate the accounts", Deadline: day(2026, 3, 9)},
			}},
		},
		Completed:     []DigestItem{{ID: "A-9", Title: "File the return", Assignee: "Carol Wu"}},
		NewlyAssigned: []DigestItem{{ID: "A-1", Title: "Circulate the accounts", Assignee: "Alice Jones", Deadline: day(2026, 3, 9)}},
		NewlyOverdue:  []DigestItem{{ID: "A-2", Title: "Chase the *auditors*", Assignee: "Bob Patel", Deadline: day(2026, 2, 27), Overdue: true}},
		Minutes:       []DigestMinutes{{Title: "Finance Committee, February", URL: "https://bot.example.org/minutes/M-2", Draft: true}},
	}
}

func TestDigestMessage(t *testing.T) {
	t.Parallel()
	m := DigestMessage(sampleDigest())
	require.NoError(t, CheckMessage(m))
	assertGoldenIn(t, "digest", func(l lang.Lang) any {
		d := sampleDigest()
		d.Lang = l
		return posted(DigestMessage(d), DigestMetadata("digest/C0FIN/finance & <audit>/2026-03-02", "finance & <audit>"))
	})

	assertGolden(t, "digest_first", func(l lang.Lang) any {
		first := sampleDigest()
		first.Lang = l
		first.Since, first.Completed, first.NewlyAssigned, first.NewlyOverdue, first.Minutes = time.Time{}, nil, nil, nil, nil
		return posted(DigestMessage(first), DigestMetadata("digest/C0FIN/finance & <audit>/2026-02-23", "finance & <audit>"))
	})
}

// A committee too long for one message is shown by its counts and the top
// of its list.
func TestDigestMessageLong(t *testing.T) {
	t.Parallel()
	d := Digest{Committee: "Big", CommitteeKey: "big", Since: day(2026, 2, 23)}
	long := ""
	for range 150 {
		long += "x"
	}
	for g := range 40 {
		grp := DigestGroup{Name: fmt.Sprintf("Person %d", g)}
		for i := range 30 {
			it := DigestItem{ID: fmt.Sprintf("A-%d-%d", g, i), Title: long, Assignee: grp.Name, Deadline: day(2026, 2, 1), Overdue: true}
			grp.Items = append(grp.Items, it)
			d.Completed, d.NewlyAssigned, d.NewlyOverdue = append(d.Completed, it), append(d.NewlyAssigned, it), append(d.NewlyOverdue, it)
		}
		d.Groups = append(d.Groups, grp)
		d.Minutes = append(d.Minutes, DigestMinutes{Title: long, URL: "https://bot.example.org/minutes/" + long})
	}
	m := DigestMessage(d)
	require.NoError(t, CheckMessage(m))
	assert.Contains(t, m.Text, "1,200 actions open, 1,200 overdue")
}
