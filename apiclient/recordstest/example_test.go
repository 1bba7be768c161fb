package recordstest_test

import (
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/recordsbot/recordsbot/apiclient/recordstest"
)

func ExampleNewServer() {
	srv := recordstest.NewServer(recordstest.WithDataset(recordstest.Dataset{
		Actions: []recordstest.Action{{ID: "FIN-2026-07/1", Title: "Circulate the forecast", Status: "open"}},
	}))
	defer srv.Close()

	// IDs are opaque: escape them as one path segment.
	req, err := http.NewRequest(http.MethodPut, srv.URL+"/actions/"+url.PathEscape("FIN-2026-07/1"), strings.NewReader(`{"status":"complete"}`))
	if err != nil {
		panic(err)
	}
	req.Header.Set("Authorization", "Bearer "+recordstest.DefaultKey)
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		panic(err)
	}
	resp.Body.Close()

	a, _ := srv.Action("FIN-2026-07/1")
	fmt.Println(resp.StatusCode, a.Status, srv.Count(http.MethodPut, "/actions/"))
	// Output: 200 complete 1
}

func ExampleServer_InjectFault() {
	srv := recordstest.NewServer()
	defer srv.Close()
	srv.InjectFault(recordstest.Fault{Method: http.MethodGet, PathPrefix: "/actions", Status: http.StatusTooManyRequests, RetryAfter: "2", Times: 1})

	for range 2 {
		req, err := http.NewRequest(http.MethodGet, srv.URL+"/actions", nil)
		if err != nil {
			panic(err)
		}
		req.Header.Set("Authorization", "Bearer "+recordstest.DefaultKey)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			panic(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		fmt.Println(resp.StatusCode, resp.Header.Get("Retry-After"), strings.TrimSpace(string(body)))
	}
	// Output:
	// 429 2 {"error":"too_many_requests","message":"injected fault: Too Many Requests"}
	// 200  {"data":[]}
}

func ExampleDemoDataset() {
	d := recordstest.DemoDataset(time.Date(2026, time.July, 20, 9, 0, 0, 0, time.UTC))
	fmt.Println(d.People[0].Name, d.People[0].Email, d.People[0].SlackID)
	fmt.Println(len(d.People), "people,", len(d.Meetings), "meetings,", len(d.Actions), "actions")
	// Output:
	// Alice Adams alice@example.org U0ALICE
	// 10 people, 44 meetings, 50 actions
}

func ExampleParseKeys() {
	keys, err := recordstest.ParseKeys("ci=actions:read+meetings:read, ops=actions:write")
	if err != nil {
		panic(err)
	}
	fmt.Println(keys["ci"], keys["ops"])

	_, err = recordstest.ParseKeys("ci=actions:delete")
	fmt.Println(err)
	// Output:
	// [actions:read meetings:read] [actions:write]
	// parse keys: unknown scope "actions:delete" for key "ci"
}
