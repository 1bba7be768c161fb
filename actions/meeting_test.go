package actions_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/recordsbot/recordsbot/actions"
	"github.com/recordsbot/recordsbot/apiclient"
)

func TestAroseAt(t *testing.T) {
	t.Parallel()
	m := &apiclient.Meeting{ID: "mtg_1", Reference: "FIN/2026/03"}
	noRef := &apiclient.Meeting{ID: "mtg_2"}
	for _, c := range []struct {
		name    string
		meeting string
		m       *apiclient.Meeting
		want    bool
	}{
		{"by the meeting's ID", "mtg_1", m, true},
		{"by its reference", "FIN/2026/03", m, true},
		{"another meeting", "mtg_9", m, false},
		{"naming no meeting", "", m, false},
		{"naming no meeting, the meeting without a reference", "", noRef, false},
		{"no meeting", "mtg_1", nil, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, c.want, actions.AroseAt(&apiclient.Action{MeetingID: c.meeting}, c.m))
		})
	}
}
