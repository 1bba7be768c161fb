package netcork_test

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"testing"

	"github.com/recordsbot/recordsbot/internal/netcork"
)

// BenchmarkLongAnswer is the write stage of a cached /actions: a 7.7 kB
// answer (the bench's reply) over a kept-alive loopback connection, as
// net/http writes it (plain) and corked. The client's time is in the
// figure too, as it is in the peer bench.
func BenchmarkLongAnswer(b *testing.B) {
	body := bytes.Repeat([]byte("x"), 7747)
	for _, corked := range []bool{false, true} {
		name := "plain"
		if corked {
			name = "corked"
		}
		b.Run(name, func(b *testing.B) {
			srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Length", strconv.Itoa(len(body)))
				c := netcork.From(r.Context())
				if corked {
					c.Cork()
				}
				w.Write(body)
				if corked {
					w.(http.Flusher).Flush()
					c.Uncork()
				}
			}))
			srv.Config.ConnContext = netcork.ConnContext
			srv.Start()
			defer srv.Close()
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
