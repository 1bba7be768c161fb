package store

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// jsonArray writes a JSON array that reads back as the IDs (invalid UTF-8
// as U+FFFD, as encoding/json reads it), with HTML's <, > and & escaped,
// and [] for none, which both engines' jsonStrings read as no rows. The
// bytes are compared by meaning, not with json.Marshal's: Go releases
// differ in how they write a replaced byte (\ufffd or the rune itself).
func TestJSONArray(t *testing.T) {
	t.Parallel()
	assert.Equal(t, "[]", jsonArray(nil))
	ids := []string{"m1@x", `quote"back\slash`, "<tag>&", "é\u2028", "\x00\xff"}
	got := jsonArray(ids)
	require.True(t, json.Valid([]byte(got)), got)
	var back []string
	require.NoError(t, json.Unmarshal([]byte(got), &back))
	want := make([]string, len(ids))
	for i, id := range ids {
		want[i] = strings.ToValidUTF8(id, "\uFFFD")
	}
	assert.Equal(t, want, back)
	assert.NotContains(t, got, "<", "HTML's characters are escaped, as encoding/json does")
	assert.Contains(t, got, `\u003ctag\u003e\u0026`)
}
