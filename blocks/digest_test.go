package blocks

import (
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/recordsbot/recordsbot/actions"
	"github.com/recordsbot/recordsbot/apiclient"
	"github.com/recordsbot/recordsbot/internal/lang"
)

// channelRow is a as a digest's or a brief's channel sees it, built as
// watch builds it: RowOf with the actions domain's ChannelView.
func channelRow(a apiclient.Action, due actions.DueStatus) ActionRow {
	return RowOf(&a, actions.ChannelView(due), "", nil)
}

func sampleDigest() Digest {
	bob, alice, carol := apiclient.Person{Name: "Bob Patel"}, apiclient.Person{Name: "Alice Jones"}, apiclient.Person{Name: "Carol Wu"}
	chase := channelRow(apiclient.Action{ID: "A-2", Title: "Chase the *auditors*", Status: apiclient.StatusOpen, Assignee: bob, Deadline: day(2026, 2, 27)}, actions.Overdue)
	hall := channelRow(apiclient.Action{ID: "A-3", Title: "Book the hall", Status: apiclient.StatusInProgress, Assignee: bob}, actions.NotDue)
	accounts := channelRow(apiclient.Action{ID: "A-1", Title: "Circulate the accounts", Status: apiclient.StatusOpen, Assignee: alice, Deadline: day(2026, 3, 9)}, actions.DueSoon)
	// A completed action's deadline is no longer news: the line leaves it
	// out.
	filed := channelRow(apiclient.Action{ID: "A-9", Title: "File the return", Status: apiclient.StatusComplete, Assignee: carol, Deadline: day(2026, 2, 20)}, actions.NotDue)
	return Digest{
		Committee: "Finance & <Audit>", CommitteeKey: "finance & <audit>",
		Since:         day(2026, 2, 23),
		Groups:        []DigestGroup{{Name: "Bob Patel", Items: []ActionRow{chase, hall}}, {Name: "Alice Jones", Mention: "U0ALICE", Items: []ActionRow{accounts}}},
		Completed:     []ActionRow{filed},
		NewlyAssigned: []ActionRow{accounts},
		NewlyOverdue:  []ActionRow{chase},
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
			it := channelRow(apiclient.Action{ID: fmt.Sprintf("A-%d-%d", g, i), Title: long, Status: apiclient.StatusOpen, Assignee: apiclient.Person{Name: grp.Name}, Deadline: day(2026, 2, 1)}, actions.Overdue)
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
