package bot

import "sync"

// turns makes work for one key wait for the work already under way for
// that key, while work for other keys goes ahead. The zero value is ready.
type turns struct {
	mu   sync.Mutex
	keys map[string]*turn
}

type turn struct {
	sync.Mutex
	waiting int // holders and waiters; the entry goes when it reaches 0
}

// take waits for key's turn and returns the function that ends it.
func (t *turns) take(key string) (done func()) {
	t.mu.Lock()
	if t.keys == nil {
		t.keys = map[string]*turn{}
	}
	k := t.keys[key]
	if k == nil {
		k = &turn{}
		t.keys[key] = k
	}
	k.waiting++
	t.mu.Unlock()

	k.Lock()
	return func() {
		k.Unlock()
		t.mu.Lock()
		if k.waiting--; k.waiting == 0 {
			delete(t.keys, key)
		}
		t.mu.Unlock()
	}
}
