package retry

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

type fakeSleep struct{ waits []time.Duration }

func (f *fakeSleep) sleep(_ context.Context, d time.Duration) error {
	f.waits = append(f.waits, d)
	return nil
}

func TestDo(t *testing.T) {
	t.Parallel()
	boom := errors.New("boom")
	tests := []struct {
		name      string
		policy    Policy
		results   []Result
		wantCalls int
		wantErr   bool
		wantWaits []time.Duration
	}{
		{"success at once", Policy{Attempts: 3}, []Result{{}}, 1, false, nil},
		{"final failure", Policy{Attempts: 3}, []Result{{Err: boom}}, 1, true, nil},
		{"retry-after honoured", Policy{Attempts: 3}, []Result{{Err: boom, Retry: true, After: 2 * time.Second}, {}}, 2, false, []time.Duration{2 * time.Second}},
		{"attempts run out", Policy{Attempts: 2}, []Result{{Err: boom, Retry: true, After: time.Millisecond}, {Err: boom, Retry: true}}, 2, true, []time.Duration{time.Millisecond}},
		{"too long a retry-after", Policy{Attempts: 3, MaxWait: time.Second}, []Result{{Err: boom, Retry: true, After: time.Minute}}, 1, true, nil},
		{"no base: no wait of our own", Policy{Attempts: 3}, []Result{{Err: boom, Retry: true}, {}}, 2, false, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			fs := &fakeSleep{}
			tt.policy.Sleep = fs.sleep
			calls := 0
			err := Do(t.Context(), tt.policy, func(context.Context, int) Result {
				r := tt.results[min(calls, len(tt.results)-1)]
				calls++
				return r
			})
			assert.Equal(t, tt.wantCalls, calls)
			assert.Equal(t, tt.wantErr, err != nil)
			assert.Equal(t, tt.wantWaits, fs.waits)
		})
	}
}

func TestBackoffIsJitteredAndCapped(t *testing.T) {
	t.Parallel()
	p := Policy{Base: 100 * time.Millisecond, Max: time.Second}
	for n := range 10 {
		d := p.backoff(n)
		want := min(100*time.Millisecond<<n, time.Second)
		assert.GreaterOrEqual(t, d, want/2)
		assert.LessOrEqual(t, d, want)
	}
	assert.LessOrEqual(t, p.backoff(200), time.Second, "no overflow on huge attempts")
	assert.Zero(t, Policy{}.backoff(0), "no base, no wait")
}

func TestDoNeverWaitsPastTheDeadline(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(t.Context(), 50*time.Millisecond)
	defer cancel()
	fs := &fakeSleep{}
	calls := 0
	err := Do(ctx, Policy{Attempts: 5, Sleep: fs.sleep}, func(context.Context, int) Result {
		calls++
		return Result{Err: errors.New("busy"), Retry: true, After: time.Second}
	})
	assert.Error(t, err)
	assert.Equal(t, 1, calls)
	assert.Empty(t, fs.waits)
}
