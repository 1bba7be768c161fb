package onewrite_test

import (
	"bytes"
	"io"
	"net/http"
	"strconv"
	"testing"

	"github.com/recordsbot/recordsbot/internal/onewrite"
)

// BenchmarkLongAnswer is the write stage of a cached /actions: a 7.7 kB
// answer (the bench's reply) over a kept-alive loopback connection, as
// net/http writes it (plain: two writes) and held (one). The client's
// time is in the figure too, as it is in the peer bench.
func BenchmarkLongAnswer(b *testing.B) {
	body := bytes.Repeat([]byte("x"), 7747)
	for _, held := range []bool{false, true} {
		name := "plain"
		if held {
			name = "held"
		}
		b.Run(name, func(b *testing.B) {
			srv := newServer(b, func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Length", strconv.Itoa(len(body)))
				c := onewrite.From(r.Context())
				if held {
					c.Hold()
				}
				w.Write(body)
				w.(http.Flusher).Flush()
				c.Send()
			})
			client := srv.Client()
			b.ReportAllocs()
			for b.Loop() {
				resp, err := client.Get(srv.URL)
				if err != nil {
					b.Fatal(err)
				}
				io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
			}
		})
	}
}
