// A counting proxy in front of the records sandbox: counts every request
// by path, and can "withdraw" minutes (answer 404 for their minutes).
package main

import (
	"encoding/json"
	"flag"
	"log"
	"net/http"
	"net/http/httputil"
	"net/url"
	"sort"
	"strings"
	"sync"
)

func main() {
	listen := flag.String("listen", "127.0.0.1:18081", "")
	target := flag.String("target", "http://127.0.0.1:18080", "")
	flag.Parse()
	u, _ := url.Parse(*target)
	rp := httputil.NewSingleHostReverseProxy(u)
	var mu sync.Mutex
	counts := map[string]int{}
	withdrawn := map[string]bool{}
	http.HandleFunc("/__count", func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		type kv struct {
			K string
			V int
		}
		var out []kv
		total := 0
		for k, v := range counts {
			out = append(out, kv{k, v})
			total += v
		}
		sort.Slice(out, func(i, j int) bool { return out[i].V > out[j].V })
		if len(out) > 15 {
			out = out[:15]
		}
		_ = json.NewEncoder(w).Encode(map[string]any{"total": total, "top": out})
	})
	http.HandleFunc("/__reset", func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		clear(counts)
		mu.Unlock()
	})
	http.HandleFunc("/__withdraw", func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		withdrawn[r.URL.Query().Get("id")] = true
		mu.Unlock()
	})
	http.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		key := r.Method + " " + r.URL.EscapedPath()
		if r.URL.RawQuery != "" {
			key += "?" + r.URL.RawQuery
		}
		mu.Lock()
		counts[key]++
		var gone bool
		for id := range withdrawn {
			if strings.HasSuffix(r.URL.EscapedPath(), "/meetings/"+url.PathEscape(id)+"/minutes") {
				gone = true
			}
		}
		mu.Unlock()
		if gone {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusNotFound)
			_, _ = w.Write([]byte(`{"error":"not_found","message":"no published minutes"}`))
			return
		}
		rp.ServeHTTP(w, r)
	})
	log.Fatal(http.ListenAndServe(*listen, nil))
}
