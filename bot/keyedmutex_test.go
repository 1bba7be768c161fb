package bot

import (
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestKeyedMutex(t *testing.T) {
	var tr keyedMutex

	// One key: the holders never overlap.
	var mu sync.Mutex
	inside, most := 0, 0
	var wg sync.WaitGroup
	for range 20 {
		wg.Go(func() {
			done := tr.lock("U1")
			mu.Lock()
			inside++
			most = max(most, inside)
			mu.Unlock()
			time.Sleep(time.Millisecond)
			mu.Lock()
			inside--
			mu.Unlock()
			done()
		})
	}
	wg.Wait()
	assert.Equal(t, 1, most, "one at a time for one key")

	// Another key does not wait for a key that is held.
	held := tr.lock("U1")
	other := make(chan struct{})
	go func() { tr.lock("U2")(); close(other) }()
	select {
	case <-other:
	case <-time.After(5 * time.Second):
		t.Fatal("U2 waited for U1")
	}
	held()

	// Nothing is kept for keys nobody holds or waits for.
	tr.mu.Lock()
	defer tr.mu.Unlock()
	require.Empty(t, tr.keys)
}
