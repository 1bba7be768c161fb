package audit_test

import (
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/recordsbot/recordsbot/audit"
)

// chain builds n sealed entries, as the store appends them.
func chain(n int) []audit.Entry {
	t0 := time.Date(2026, 11, 2, 9, 0, 0, 0, time.UTC)
	out := make([]audit.Entry, n)
	for i := range out {
		out[i] = audit.Entry{Time: t0.Add(time.Duration(i) * time.Minute), Actor: "U123", ActorRecords: "ada@example.org",
			Surface: audit.Reply, Kind: audit.ActionStatus, Target: fmt.Sprintf("act_%d", i), From: "open", To: "complete",
			Outcome: audit.Done, RequestID: "0123456789abcdef"}
		var head *audit.Entry
		if i > 0 {
			head = &out[i-1]
		}
		audit.Seal(&out[i], head)
	}
	return out
}

func TestVerifyNamesTheFirstBrokenEntry(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name   string
		tamper func([]audit.Entry) []audit.Entry
		seq    int64
		reason string
	}{
		{"edited", func(c []audit.Entry) []audit.Entry { c[3].To = "open"; return c }, 4, "altered"},
		{"edited and rehashed", func(c []audit.Entry) []audit.Entry {
			c[3].Actor = "U999"
			c[3].Hash = audit.Sum(&c[3])
			return c
		}, 5, "does not follow entry 4"},
		{"deleted", func(c []audit.Entry) []audit.Entry { return append(c[:3], c[4:]...) }, 5, "entry 4 should come before it"},
		{"swapped", func(c []audit.Entry) []audit.Entry { c[2], c[3] = c[3], c[2]; return c }, 4, "entry 3 should come before it"},
		{"swapped and renumbered", func(c []audit.Entry) []audit.Entry {
			c[2], c[3] = c[3], c[2]
			c[2].Seq, c[3].Seq = 3, 4
			return c
		}, 3, "altered"},
		{"first deleted", func(c []audit.Entry) []audit.Entry { return c[1:] }, 2, "no checkpoint"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, err := audit.Verify(tc.tamper(chain(8)))
			var broken *audit.BrokenError
			require.ErrorAs(t, err, &broken)
			assert.Equal(t, tc.seq, broken.Seq, "got %v", err)
			assert.Contains(t, broken.Reason, tc.reason)
		})
	}
}

func TestVerifyAcceptsAnIntactChain(t *testing.T) {
	t.Parallel()
	c := chain(5)
	h, err := audit.Verify(c)
	require.NoError(t, err)
	assert.Equal(t, audit.Head{Entries: 5, First: 1, Seq: 5, Hash: c[4].Hash}, h)
	h, err = audit.Verify(nil)
	require.NoError(t, err)
	assert.Equal(t, "empty", h.String())
}

func TestACheckpointLetsTheChainStartLater(t *testing.T) {
	t.Parallel()
	c := chain(6)
	cp := audit.NewCheckpoint(4, c[3].Prev, 3)
	audit.Seal(&cp, &c[5])
	kept := append(c[3:], cp)
	h, err := audit.Verify(kept)
	require.NoError(t, err)
	assert.Equal(t, int64(4), h.First)

	// One more removed than the checkpoint says.
	_, err = audit.Verify(kept[1:])
	var broken *audit.BrokenError
	require.ErrorAs(t, err, &broken)
	assert.Equal(t, int64(5), broken.Seq)
	assert.Contains(t, broken.Reason, "says it starts at entry 4")
}

func TestCanonicalKeepsFieldsApart(t *testing.T) {
	t.Parallel()
	a := audit.Entry{From: "ab", To: "c"}
	b := audit.Entry{From: "a", To: "bc"}
	assert.NotEqual(t, audit.Sum(&a), audit.Sum(&b))
}

func TestRetention(t *testing.T) {
	t.Parallel()
	d, err := audit.Retention(0)
	require.NoError(t, err)
	assert.Equal(t, 400*24*time.Hour, d)
	_, err = audit.Retention(89)
	require.Error(t, err)
	assert.False(t, errors.Is(err, nil))
	d, err = audit.Retention(90)
	require.NoError(t, err)
	assert.Equal(t, 90*24*time.Hour, d)
}

// BenchmarkVerify100k verifies a chain of 100,000 entries (the issue asks
// for under 10 s; the store's own benchmark adds reading them).
func BenchmarkVerify100k(b *testing.B) {
	c := chain(100_000)
	b.ResetTimer()
	for b.Loop() {
		if _, err := audit.Verify(c); err != nil {
			b.Fatal(err)
		}
	}
}
