package bot_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/recordsbot/recordsbot/bot"
)

func TestSearchBackfillMetrics(t *testing.T) {
	t.Parallel()
	m := bot.NewMetrics()
	pages, read, done := 3.0, 40.0, time.Time{}
	m.SearchBackfill(func() (float64, float64, time.Time) { return pages, read, done })
	mfs, err := m.Registry().Gather()
	require.NoError(t, err)
	got := map[string]float64{}
	for _, mf := range mfs {
		for _, mt := range mf.GetMetric() {
			if mt.GetGauge() != nil {
				got[mf.GetName()] = mt.GetGauge().GetValue()
			}
		}
	}
	assert.Equal(t, 3.0, got["recordsbot_search_backfill_pages"])
	assert.Equal(t, 40.0, got["recordsbot_search_backfill_minutes_read"])
	assert.Zero(t, got["recordsbot_search_backfill_done_timestamp_seconds"], "no pass finished yet")
}
