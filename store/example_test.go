package store_test

import (
	"context"
	"fmt"
	"time"

	"github.com/recordsbot/recordsbot/store"
)

// The ledger protocol for one announcement: claim, post with the key in the
// message metadata, record the ts; give the key back if the post failed;
// on ClaimExpired look for the key in Slack before posting.
func ExampleStore_Claim() {
	ctx := context.Background()
	s, err := store.Open(ctx, "sqlite::memory:")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer s.Close()

	// Stand-ins for chat.postMessage (with metadata) and for
	// conversations.history with include_all_metadata.
	posted := map[string]string{}
	post := func(key string) (string, error) { posted[key] = "1700000000.000100"; return posted[key], nil }
	find := func(key string) (string, bool) { ts, ok := posted[key]; return ts, ok }

	announce := func(key, owner string) {
		r, err := s.Claim(ctx, key, owner, 2*time.Minute)
		if err != nil {
			fmt.Println("store down:", store.IsUnavailable(err))
			return
		}
		switch r {
		case store.ClaimDone, store.ClaimBusy:
			fmt.Println(owner, "skips:", r)
			return
		case store.ClaimExpired:
			if ts, ok := find(key); ok {
				_ = s.Done(ctx, key, owner, ts)
				fmt.Println(owner, "found the earlier post")
				return
			}
		}
		ts, err := post(key)
		if err != nil {
			_ = s.Release(ctx, key, owner) // the next poll retries
			return
		}
		if err := s.Done(ctx, key, owner, ts); err != nil {
			fmt.Println(err)
			return
		}
		fmt.Println(owner, "posted", ts)
	}

	announce("announce/C123/mtg_42/approved", "replica-a")
	announce("announce/C123/mtg_42/approved", "replica-b")
	// Output:
	// replica-a posted 1700000000.000100
	// replica-b skips: done
}
