package bot

import "sync"

// keyedMutex makes work for one key wait for the work already under way for
// that key, while work for other keys goes ahead. The zero value is ready.
type keyedMutex struct {
	mu   sync.Mutex
	keys map[string]*keyLock
}

type keyLock struct {
	sync.Mutex
	waiting int // holders and waiters; the entry goes when it reaches 0
}

// lock waits until no other holder has key and returns the unlock.
func (t *keyedMutex) lock(key string) (done func()) {
	t.mu.Lock()
	if t.keys == nil {
		t.keys = map[string]*keyLock{}
	}
	k := t.keys[key]
	if k == nil {
		k = &keyLock{}
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
