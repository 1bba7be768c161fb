package main

import (
	"reflect"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/recordsbot/recordsbot/follows"
	"github.com/recordsbot/recordsbot/internal/clocktime"
	"github.com/recordsbot/recordsbot/store"
)

// TestDefaultTimesSaidOnce: an envconfig default is a string in a struct
// tag, which cannot name a Go value, so the tags are held here to the
// one value the code uses when nothing is said: REMIND_AT to
// store.DefaultRemindAt and DIGEST_DEFAULT to follows.DefaultDigest.
func TestDefaultTimesSaidOnce(t *testing.T) {
	t.Parallel()
	tag := func(field string) string {
		f, ok := reflect.TypeFor[Config]().FieldByName(field)
		require.True(t, ok, field)
		return f.Tag.Get("default")
	}
	at, err := clocktime.Parse(tag("RemindAt"))
	require.NoError(t, err)
	assert.Equal(t, store.DefaultRemindAt, at, "REMIND_AT's default")
	digest, err := clocktime.ParseWeekly(tag("DigestDefault"))
	require.NoError(t, err)
	assert.Equal(t, follows.DefaultDigest, digest, "DIGEST_DEFAULT's default")
}
