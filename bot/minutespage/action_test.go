package minutespage_test

import (
	"net/http"
	"net/url"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/recordsbot/recordsbot/minutes"
)

// An action's own link opened in a browser says what it is and leads into
// Slack, and shows nothing of the action: the same page for an action that
// exists and for one that does not, read from no records, in the reader's
// language, never indexed; and so with PUBLIC_MINUTES off.
func TestActionLinkPage(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	a := h.data.Actions[0]
	require.NotEmpty(t, a.Title)
	h.records.ResetRequests()

	real := h.fetchPage(http.MethodGet, "/actions/"+url.PathEscape(a.ID), nil)
	require.Equal(t, http.StatusOK, real.status)
	assert.Contains(t, real.body, "An action in recordsbot")
	assert.Contains(t, real.body, `href="slack://open"`)
	assert.Contains(t, real.body, `<meta name="robots" content="noindex">`)
	assert.Contains(t, real.body, `href="../minutes/assets/style.css`, "the stylesheet beside the minutes pages")
	assert.NotContains(t, real.body, a.Title, "nothing of the action")
	assert.NotContains(t, real.body, a.AssigneeEmail)
	made := h.fetchPage(http.MethodGet, "/actions/no-such-action", nil)
	assert.Equal(t, real.body, made.body, "the same page for any ID: a link gives nothing away")
	assert.Zero(t, h.records.Count("", ""), "no records call")

	fr := h.fetchPage(http.MethodGet, "/actions/A-1", http.Header{"Accept-Language": {"fr"}})
	assert.Contains(t, fr.body, "Une action dans recordsbot")
	head := h.fetchPage(http.MethodHead, "/actions/A-1", nil)
	assert.Equal(t, http.StatusOK, head.status)

	h.rebuild(withMinutes(func(c *minutes.Config) { c.Public = false }))
	off := h.fetchPage(http.MethodGet, "/actions/A-1", nil)
	assert.Equal(t, http.StatusOK, off.status, "served whenever PUBLIC_URL gives actions links")
}
