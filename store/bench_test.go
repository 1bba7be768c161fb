package store

import (
	"fmt"
	"testing"
	"time"

	"github.com/recordsbot/recordsbot/store/storetest"
)

// BenchmarkClaimDone is the ledger's cost per piece of work (one Claim and
// one Done), which bounds how fast a watcher or a reminder run can go
// through its keys:
//
//	go test ./store -run '^$' -bench ClaimDone -benchtime 2000x
//
// (set RECORDSBOT_TEST_POSTGRES for the postgres case).
func BenchmarkClaimDone(b *testing.B) {
	for _, e := range []engine{sqliteFile, sqliteMemory, postgres} {
		b.Run(e.name, func(b *testing.B) {
			if e.name == "postgres" {
				storetest.Skip(b)
			}
			s, err := Open(b.Context(), e.newURL(b))
			if err != nil {
				b.Fatal(err)
			}
			defer s.Close()
			i := 0
			for b.Loop() {
				i++
				key := fmt.Sprintf("remind/U%06d/2026-11-23", i)
				r, err := s.Claim(b.Context(), key, "bench", time.Minute)
				if err != nil || r != ClaimNew {
					b.Fatalf("claim %s: %v %v", key, r, err)
				}
				if err := s.Done(b.Context(), key, "bench", "1700000000.000100"); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
