package store

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// jsonArray writes what encoding/json writes for a list of IDs, and []
// for none, which both engines' jsonStrings read as no rows.
func TestJSONArray(t *testing.T) {
	t.Parallel()
	assert.Equal(t, "[]", jsonArray(nil))
	ids := []string{"m1@x", `quote"back\slash`, "<tag>&", "é\u2028", "\x00\xff"}
	want, err := json.Marshal(ids)
	require.NoError(t, err)
	assert.Equal(t, string(want), jsonArray(ids))
}
