package actions

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/recordsbot/recordsbot/apiclient"
)

// Every status the records document is in exactly one cached list, so
// All, find, invalidate and put see every action whatever its status.
func TestEveryStatusHasOneList(t *testing.T) {
	t.Parallel()
	seen := map[string]int{}
	for _, st := range apiclient.Statuses() {
		key := string(st)
		if StillToDo(st) {
			key = activeKey
		}
		assert.Contains(t, listKeys, key, "status %s has no list", st)
		seen[key]++
	}
	for _, key := range listKeys {
		assert.NotZero(t, seen[key], "list %s holds no status", key)
	}
	assert.Equal(t, append([]string{activeKey}, listKeys...), findKeys)
}
