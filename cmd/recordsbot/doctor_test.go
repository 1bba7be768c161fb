package main

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/recordsbot/recordsbot/doctor"
)

// doctor's own checks are doctor's to test; here, that the
// subcommand hands it the settings as start-up parsed them, with every
// problem, and takes its flags.

// A variable only remind checks is a problem doctor shows, with its fix,
// and a blocking one.
func TestDoctorShowsEveryProblemStartUpFinds(t *testing.T) {
	t.Parallel()
	var stdout, stderr bytes.Buffer
	cfg := Config{RemindDays: -1, Port: 3000, DatabaseURL: "sqlite://" + filepath.Join(t.TempDir(), "recordsbot.db")}
	err := run(t.Context(), cfg, []string{"doctor"}, strings.NewReader(""), &stdout, &stderr)
	require.ErrorIs(t, err, doctor.ErrFailed)
	assert.Empty(t, stderr.String(), "doctor prints its checklist on stdout only")
	out := stdout.String()
	for _, want := range []string{
		"✗ REMIND_DAYS must be 0 or more, got -1\n      → fix REMIND_DAYS",
		"✗ RECORDS_API_URL is required",
		"✗ RECORDS_API_URL and RECORDS_API_KEY must both be set; nothing was checked",
	} {
		assert.Contains(t, out, "\n  "+want)
	}
}

func TestDoctorUsage(t *testing.T) {
	t.Parallel()
	var stdout, stderr bytes.Buffer
	err := run(t.Context(), Config{}, []string{"doctor", "--no-such-flag"}, strings.NewReader(""), &stdout, &stderr)
	require.ErrorIs(t, err, errUsage)
	assert.Contains(t, stderr.String(), "-write-check", "the flags are listed")
	assert.Empty(t, stdout.String())
}
