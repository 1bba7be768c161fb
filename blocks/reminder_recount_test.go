package blocks

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestReminderSummaryIDReadsBack: the counts a reminder's sentence keeps
// in its block ID read back in any revision; other IDs are not it.
func TestReminderSummaryIDReadsBack(t *testing.T) {
	t.Parallel()
	for _, c := range []reminderCount{{Overdue: 2, Due: 3, Days: 7}, {Due: 1, Weekly: true}, {}} {
		got, ok := parseReminderSummaryID(reminderSummaryID(c) + "~rev1")
		assert.True(t, ok, "%+v", c)
		assert.Equal(t, c, got)
	}
	for _, id := range []string{"remind:count:1:2", "remind:count:a:1:2", "remind:count:-1:0:3", "remind:overdue", "action:A-1", "remind:count:1:2:3:x"} {
		_, ok := parseReminderSummaryID(id)
		assert.False(t, ok, id)
	}
}
