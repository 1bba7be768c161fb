package apiclient

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// stubActions renders n actions the way the benchmark's records stub does
// (shared/bench/records-stub): a bare JSON array of flat records.
func stubActions(tb testing.TB, n int) []byte {
	tb.Helper()
	type assignee struct {
		Email string `json:"email"`
		Name  string `json:"name"`
	}
	type action struct {
		ID          string   `json:"id"`
		MeetingID   string   `json:"meeting_id"`
		Title       string   `json:"title"`
		Description string   `json:"description"`
		Status      string   `json:"status"`
		Assignee    assignee `json:"assignee"`
		DueDate     string   `json:"due_date"`
		CreatedAt   string   `json:"created_at"`
	}
	cycle := []string{"open", "in_progress", "open", "complete", "open", "deferred", "open", "cancelled", "open", "open"}
	users := max(1, n/10)
	base := time.Date(2026, time.November, 2, 9, 0, 0, 0, time.UTC)
	out := make([]action, n)
	for i := 1; i <= n; i++ {
		u := (i-1)%users + 1
		meeting := (i-1)/25 + 1
		out[i-1] = action{
			ID:          fmt.Sprintf("act-%06d", i),
			MeetingID:   fmt.Sprintf("mtg-%04d", meeting),
			Title:       fmt.Sprintf("Send the Q&A notes to the team (#%d)", i),
			Description: fmt.Sprintf("Raised in meeting mtg-%04d; owner user%d. Keep the thread updated.", meeting, u),
			Status:      cycle[((i-1)/users)%len(cycle)],
			Assignee:    assignee{Email: fmt.Sprintf("user%d@example.org", u), Name: fmt.Sprintf("User %d", u)},
			DueDate:     base.AddDate(0, 0, 14+(i*7)%45).Format("2006-01-02"),
			CreatedAt:   base.Add(time.Duration(i) * time.Minute).Format(time.RFC3339),
		}
	}
	b, err := json.Marshal(out)
	require.NoError(tb, err)
	return b
}

func BenchmarkDecodeActions2000(b *testing.B) {
	body := stubActions(b, 2000)
	d := new(decoder)
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for b.Loop() {
		acts, _, _, err := decodeList(d, body, "actions", nil, -1, decodeAction)
		if err != nil || len(acts) != 2000 {
			b.Fatalf("decode: %d actions, %v", len(acts), err)
		}
		d.release()
	}
}

// BenchmarkDecodeActions2000Baseline is the yardstick: encoding/json into
// the smallest struct that carries the same information (no Raw, no
// aliases, deadline left as a string).
func BenchmarkDecodeActions2000Baseline(b *testing.B) {
	body := stubActions(b, 2000)
	type action struct {
		ID        string `json:"id"`
		MeetingID string `json:"meeting_id"`
		Title     string `json:"title"`
		Status    string `json:"status"`
		Assignee  struct {
			Email string `json:"email"`
			Name  string `json:"name"`
		} `json:"assignee"`
		DueDate string `json:"due_date"`
	}
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for b.Loop() {
		var acts []action
		if err := json.Unmarshal(body, &acts); err != nil || len(acts) != 2000 {
			b.Fatalf("decode: %d actions, %v", len(acts), err)
		}
	}
}

// BenchmarkListActions2000 reads a list of 2,000 actions over loopback:
// "changed" when every answer differs from the last (decoded every time),
// "same" when the same bytes come back (taken from the page remembered,
// copied for the caller), "same,shared" with WithSharedLists (the very
// list returned last time).
func BenchmarkListActions2000(b *testing.B) {
	body := stubActions(b, 2000)
	other := bytes.Replace(body, []byte("Send the"), []byte("SEND the"), 1)
	for _, bc := range []struct {
		name    string
		changed bool
		opts    []Option
	}{{"changed", true, nil}, {"same", false, nil}, {"same,shared", false, []Option{WithSharedLists()}}} {
		b.Run(bc.name, func(b *testing.B) {
			var turn atomic.Bool
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "application/json")
				if bc.changed && turn.Swap(!turn.Load()) {
					_, _ = w.Write(other)
					return
				}
				_, _ = w.Write(body)
			}))
			b.Cleanup(srv.Close)
			c, err := NewClient(srv.URL+"/api/v1", "bench-key", bc.opts...)
			require.NoError(b, err)
			b.SetBytes(int64(len(body)))
			b.ReportAllocs()
			for b.Loop() {
				list, err := c.ListActions(b.Context(), nil)
				if err != nil || len(list.Actions) != 2000 {
					b.Fatalf("list: %v", err)
				}
			}
		})
	}
}

// BenchmarkListActions2000Baseline does the same round trip with net/http
// and encoding/json and nothing else.
func BenchmarkListActions2000Baseline(b *testing.B) {
	body := stubActions(b, 2000)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(body)
	}))
	b.Cleanup(srv.Close)
	type action struct {
		ID        string `json:"id"`
		MeetingID string `json:"meeting_id"`
		Title     string `json:"title"`
		Status    string `json:"status"`
		Assignee  struct {
			Email string `json:"email"`
			Name  string `json:"name"`
		} `json:"assignee"`
		DueDate string `json:"due_date"`
	}
	hc := srv.Client()
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for b.Loop() {
		req, _ := http.NewRequestWithContext(b.Context(), http.MethodGet, srv.URL+"/api/v1/actions", nil)
		req.Header.Set("Authorization", "Bearer bench-key")
		resp, err := hc.Do(req)
		if err != nil {
			b.Fatal(err)
		}
		var acts []action
		err = json.NewDecoder(resp.Body).Decode(&acts)
		_ = resp.Body.Close()
		if err != nil || len(acts) != 2000 {
			b.Fatalf("decode: %v", err)
		}
	}
}
