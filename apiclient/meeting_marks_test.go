package apiclient

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The marks records services put on a meeting (the API defines none) are
// read under the names services use, and under any name RECORDS_FIELD_MAP
// gives: what package publication needs to leave a meeting out.
func TestMeetingMarks(t *testing.T) {
	t.Parallel()
	srv := newAPIServer(t, serveJSON(http.StatusOK, `{"meetings":[
		{"id":"m1","title":"A","status":"cancelled","visibility":"private"},
		{"id":"m2","title":"B","is_confidential":"Yes","is_public":0},
		{"id":"m3","title":"C","state":{"name":"scheduled"},"access":"public","public":true},
		{"id":"m4","title":"D","confidential":"maybe"},
		{"id":"m5","title":"E","meta":{"sensitivity":"restricted","published":false,"hush":true}}]}`))
	c := newTestClient(t, srv)
	p, err := c.ListMeetings(t.Context(), nil)
	require.NoError(t, err)
	require.Len(t, p.Meetings, 5)
	m := p.Meetings
	assert.Equal(t, [2]string{"cancelled", "private"}, [2]string{m[0].Status, m[0].Visibility})
	assert.True(t, m[1].Confidential)
	assert.True(t, m[1].NotPublic, "a public flag that is 0")
	assert.Equal(t, [2]string{"scheduled", "public"}, [2]string{m[2].Status, m[2].Visibility})
	assert.False(t, m[2].NotPublic)
	assert.False(t, m[3].Confidential, "not a yes or no: not a mark")
	assert.Empty(t, m[4].Visibility, "an unknown name is not read without the field map")

	fm, err := ParseFieldMap("meeting.visibility=meta.sensitivity,meeting.public=meta.published,meeting.confidential=meta.hush")
	require.NoError(t, err)
	p, err = newTestClient(t, srv, WithFieldMap(fm)).ListMeetings(t.Context(), nil)
	require.NoError(t, err)
	assert.Equal(t, "restricted", p.Meetings[4].Visibility, "RECORDS_FIELD_MAP names another")
	assert.True(t, p.Meetings[4].NotPublic)
	assert.True(t, p.Meetings[4].Confidential)
}
