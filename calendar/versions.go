package calendar

import (
	"context"
	"sync"
	"time"

	"github.com/recordsbot/recordsbot/store"
)

// memoryVersions keeps event versions in memory, for a bot without a
// store: the same rule as store.EventVersions, for this process's life.
type memoryVersions struct {
	now func() time.Time
	mu  sync.Mutex
	m   map[string]memoryVersion
}

type memoryVersion struct {
	fingerprint string
	v           store.EventVersion
}

func newMemoryVersions(now func() time.Time) *memoryVersions {
	return &memoryVersions{now: now, m: map[string]memoryVersion{}}
}

// EventVersions implements Versions.
func (mv *memoryVersions) EventVersions(_ context.Context, fps map[string]string) (map[string]store.EventVersion, error) {
	mv.mu.Lock()
	defer mv.mu.Unlock()
	now := mv.now()
	out := make(map[string]store.EventVersion, len(fps))
	for uid, fp := range fps {
		was, ok := mv.m[uid]
		switch {
		case !ok:
			was = memoryVersion{fp, store.EventVersion{ChangedAt: now}}
		case was.fingerprint != fp:
			was = memoryVersion{fp, store.EventVersion{Sequence: was.v.Sequence + 1, ChangedAt: now}}
		}
		mv.m[uid] = was
		out[uid] = was.v
	}
	return out, nil
}
