package publication_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/recordsbot/recordsbot/apiclient"
	"github.com/recordsbot/recordsbot/publication"
)

func TestWithheld(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		m    *apiclient.Meeting
		want bool
	}{
		{"no mark", &apiclient.Meeting{ID: "a"}, false},
		{"scheduled, public", &apiclient.Meeting{Status: "Scheduled", Visibility: "Public"}, false},
		{"cancelled", &apiclient.Meeting{Status: "cancelled"}, true},
		{"canceled", &apiclient.Meeting{Status: " Canceled "}, true},
		{"private", &apiclient.Meeting{Visibility: "private"}, true},
		{"an unknown visibility fails closed", &apiclient.Meeting{Visibility: "members-only"}, true},
		{"confidential", &apiclient.Meeting{Confidential: true}, true},
		{"not public", &apiclient.Meeting{NotPublic: true}, true},
		{"nil", nil, true},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, publication.Withheld(tt.m), tt.name)
	}
}

func TestParseSchedule(t *testing.T) {
	t.Parallel()
	fin := &apiclient.Meeting{Committee: "Finance"}
	for _, v := range []string{"", "false", "off", "0"} {
		s := publication.ParseSchedule(v)
		assert.False(t, s.On(), v)
		assert.False(t, s.Publishes(fin), v)
	}
	for _, v := range []string{"true", "TRUE", "yes", "1"} {
		s := publication.ParseSchedule(v)
		assert.True(t, s.All(), v)
		assert.True(t, s.Publishes(fin), v)
		assert.False(t, s.Publishes(&apiclient.Meeting{Committee: "Finance", Status: "cancelled"}), "withheld whatever the schedule")
	}
	s := publication.ParseSchedule("Audit, finance ,")
	assert.True(t, s.On())
	assert.False(t, s.All())
	assert.True(t, s.Publishes(fin), "case and space ignored")
	assert.True(t, s.Committee(" AUDIT"))
	assert.False(t, s.Committee("Events"))
	assert.ElementsMatch(t, []string{"audit", "finance"}, s.Names())
}
