package minutes

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/recordsbot/recordsbot/apiclient"
	"github.com/recordsbot/recordsbot/store"
)

// TestRecordComparesWhatReadersRead: the same minutes in HTML, Markdown
// and plain text are one version; a word changed is a change; hidden
// minutes are never kept; approval as drafted is a version of 0 changes.
func TestRecordComparesWhatReadersRead(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	s, err := store.Open(ctx, "sqlite::memory:")
	require.NoError(t, err)
	t.Cleanup(func() { _ = s.Close() })
	draft := apiclient.MinutesPublishedDraft
	for _, min := range []*apiclient.Minutes{
		{Status: draft, Body: "# Levy\n\nThe levy is **3%**.", Format: apiclient.FormatMarkdown},
		{Status: draft, Body: "<h1>Levy</h1><p>The levy is <b>3%</b>.</p>", Format: apiclient.FormatHTML},
		{Status: draft, Body: "Levy\n\nThe levy is 3%."},
	} {
		vs, err := Record(ctx, s, "m1", min)
		require.NoError(t, err)
		assert.Len(t, vs, 1, "markup alone is no change: %q", min.Body)
	}
	vs, err := Record(ctx, s, "m1", &apiclient.Minutes{Status: "in_review", Body: "Secret draft."})
	require.NoError(t, err)
	assert.Empty(t, vs, "minutes not visible are never kept")
	vs, err = Record(ctx, s, "m1", &apiclient.Minutes{Status: apiclient.MinutesApproved, Body: "Levy\n\nThe levy is 3%."})
	require.NoError(t, err)
	require.Len(t, vs, 2)
	r := RevisionsOf(vs)
	assert.Equal(t, 0, r.Changes, "approved as drafted")
	assert.False(t, r.Draft.IsZero())
	vs, err = Record(ctx, s, "m1", &apiclient.Minutes{Status: apiclient.MinutesApproved, Body: "Levy\n\nThe levy is 4%."})
	require.NoError(t, err)
	r = RevisionsOf(vs)
	assert.Equal(t, 1, r.EditChanges)
	assert.Equal(t, [2]int{2, 3}, [2]int{r.From, r.To}, "the comparison of the approval and the edit")

	first, err := Record(ctx, s, "m2", &apiclient.Minutes{Status: apiclient.MinutesApproved, Body: "Seen approved first."})
	require.NoError(t, err)
	assert.False(t, RevisionsOf(first).Known(), "no draft seen: nothing to say")
}
