package main

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A malformed REMIND_HOLIDAYS entry stops remind at start, naming it.
func TestRemindHolidaysMalformedStopsStart(t *testing.T) {
	t.Parallel()
	set := &settings{holidays: "2026-12-25, 2026-02-30"}
	_, err := loadHolidays(t.Context(), set)
	var ce *configError
	require.ErrorAs(t, err, &ce)
	assert.Equal(t, `REMIND_HOLIDAYS entry "2026-02-30" is not a date (YYYY-MM-DD)`, ce.msg)
}
