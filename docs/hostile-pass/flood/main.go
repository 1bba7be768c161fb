// Clients (-clients, default 2) flood the public routes with made-up
// lookups, each as fast as it may, while a reader fetches real pages;
// loopback only, stops by itself after -for. -kinds ids floods made-up
// meeting IDs on /minutes/{id}; -kinds committees made-up committees on
// /minutes?committee=; -kinds all every kind of made-up lookup
// (meeting IDs, committees on the archive, its feed, a search and the
// calendars, forged cursors, private calendar tokens).
package main

import (
	"context"
	"flag"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

func main() {
	base := flag.String("base", "http://127.0.0.1:13000", "")
	ids := flag.String("ids", "", "comma-separated real meeting IDs for the reader")
	dur := flag.Duration("for", 10*time.Second, "")
	clients := flag.Int("clients", 2, "flooding clients")
	kinds := flag.String("kinds", "ids", "ids, committees or all")
	flag.Parse()
	lookup := func(c, w, i int) string {
		v := fmt.Sprintf("junk-%d-%d-%d", c, w, i)
		switch *kinds {
		case "ids":
			return "/minutes/" + v
		case "committees":
			return "/minutes?committee=" + v
		}
		all := []string{
			"/minutes/" + v,
			"/minutes?committee=" + v,
			"/minutes/feed.atom?committee=" + v,
			"/minutes?committee=" + v + "&q=budget",
			"/minutes?after=eyJuIjoiL2FwaS92MS9tZWV0aW5ncyJ9" + fmt.Sprint(i),
			"/calendar/" + v + ".ics",
			"/calendar/meeting/" + v + ".ics",
			"/calendar/u/" + strings.Repeat("a", 52) + ".ics",
		}
		return all[i%len(all)]
	}
	if !strings.HasPrefix(*base, "http://127.0.0.1:") {
		panic("loopback only")
	}
	ctx, cancel := context.WithTimeout(context.Background(), *dur)
	defer cancel()
	var wg sync.WaitGroup
	var sent, c200, c404, c429, c503 atomic.Int64
	cl := &http.Client{Timeout: 5 * time.Second}
	get := func(path, addr string) int {
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, *base+path, nil)
		req.Header.Set("X-Forwarded-For", addr)
		resp, err := cl.Do(req)
		if err != nil {
			return 0
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	for c := range *clients {
		for w := range 4 {
			wg.Go(func() {
				for i := 0; ctx.Err() == nil; i++ {
					st := get(lookup(c, w, i), fmt.Sprintf("203.0.113.%d", c+1))
					sent.Add(1)
					switch st {
					case 200:
						c200.Add(1)
					case 404:
						c404.Add(1)
					case 429:
						c429.Add(1)
					case 503:
						c503.Add(1)
					}
					time.Sleep(10 * time.Millisecond)
				}
			})
		}
	}
	time.Sleep(2 * time.Second)
	var got []string
	ok := 0
	for _, id := range strings.Split(*ids, ",") {
		st := get("/minutes/"+id, "198.51.100.7")
		got = append(got, fmt.Sprint(st))
		if st == 200 {
			ok++
		}
		time.Sleep(250 * time.Millisecond) // within the reader's own rate
	}
	wg.Wait()
	fmt.Printf("flood: %d requests (404 %d, 429 %d, 503 %d, 200 %d)\nreader: %d of %d real pages 200: %s\n",
		sent.Load(), c404.Load(), c429.Load(), c503.Load(), c200.Load(), ok, len(got), strings.Join(got, " "))
}
