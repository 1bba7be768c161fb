package bot

import (
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// readBody reads what the sender says it sends and no more than the cap;
// a body cut short is an error, and a claimed length is not reserved
// before its bytes arrive unless it is short.
func TestReadBody(t *testing.T) {
	t.Parallel()
	read := func(body io.Reader, length, limit int64) ([]byte, error) {
		r := httptest.NewRequest(http.MethodPost, "/slack/events", body)
		r.ContentLength = length
		return readBody(httptest.NewRecorder(), r, limit)
	}
	got, err := read(strings.NewReader("command=%2Factions"), 18, 1<<20)
	require.NoError(t, err)
	assert.Equal(t, "command=%2Factions", string(got), "a body of the length it claims")

	_, err = read(io.LimitReader(strings.NewReader("command=%2Factions"), 5), 18, 1<<20)
	assert.ErrorIs(t, err, io.ErrUnexpectedEOF, "a body shorter than it claims")

	var tooBig *http.MaxBytesError
	_, err = read(strings.NewReader(strings.Repeat("a", 100)), -1, 50)
	assert.True(t, errors.As(err, &tooBig), "an unknown length past the cap: %v", err)
	_, err = read(strings.NewReader(strings.Repeat("a", 100)), 100, 50)
	assert.True(t, errors.As(err, &tooBig), "a claimed length past the cap: %v", err)

	long := strings.Repeat("a", maxExactBody+1)
	got, err = read(strings.NewReader(long), int64(len(long)), 1<<20)
	require.NoError(t, err)
	assert.Equal(t, long, string(got), "a long body, read as it arrives")
}

// A claim of a long body costs the memory of what arrives, not of the
// claim: the signature is checked only after the body is read. Not
// parallel: it counts the process's allocations.
func TestReadBodyReservesNoClaim(t *testing.T) {
	var before, after runtime.MemStats
	r := httptest.NewRequest(http.MethodPost, "/slack/events", strings.NewReader("ten bytes."))
	r.ContentLength = 1 << 20 // claimed; ten bytes come
	runtime.ReadMemStats(&before)
	got, err := readBody(httptest.NewRecorder(), r, 1<<20)
	runtime.ReadMemStats(&after)
	require.NoError(t, err) // a real server's body would say io.ErrUnexpectedEOF
	assert.Equal(t, "ten bytes.", string(got))
	assert.Less(t, after.TotalAlloc-before.TotalAlloc, uint64(256<<10), "a 1 MiB claim reserved nothing like it")
}
