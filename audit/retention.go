package audit

import (
	"fmt"
	"time"
)

// DefaultRetentionDays is AUDIT_RETENTION_DAYS's default: 400 days, a
// year of committee meetings and the month or so it takes to approve the
// last one's minutes.
const DefaultRetentionDays = 400

// MinRetentionDays is the shortest retention accepted: 90 days, a
// quarter, so an auditor asked about last quarter can still answer.
const MinRetentionDays = 90

// Retention checks AUDIT_RETENTION_DAYS: 0 is the default; under
// MinRetentionDays is an error fit to show at start-up.
func Retention(days int) (time.Duration, error) {
	if days == 0 {
		days = DefaultRetentionDays
	}
	if days < MinRetentionDays {
		return 0, fmt.Errorf("must be at least %d (the audit trail is kept at least a quarter), got %d", MinRetentionDays, days)
	}
	return time.Duration(days) * 24 * time.Hour, nil
}
