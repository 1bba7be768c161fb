package recordstest_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/recordsbot/recordsbot/apiclient"
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

func ExampleWithDataset() {
	// Times are fixed so the example's output is too.
	at := time.Date(2026, time.July, 14, 18, 0, 0, 0, time.UTC)
	srv := recordstest.NewServer(recordstest.WithDataset(recordstest.Dataset{
		People: []recordstest.Person{{Name: "Alice Adams", Email: "alice@example.org", SlackID: "U0ALICE"}},
		Meetings: []recordstest.Meeting{{
			ID: "mtg_1", Reference: "FIN-2026-07", Title: "Finance Committee", Committee: "Finance", Date: at,
		}},
		Minutes: []recordstest.Minutes{{MeetingID: "mtg_1", Status: "approved", Body: "# Minutes", UpdatedAt: at}},
		Actions: []recordstest.Action{{
			ID: "FIN-2026-07/1", Title: "Circulate the forecast", Status: "open",
			AssigneeEmail: "alice@example.org", AssigneeName: "Alice Adams", MeetingID: "mtg_1",
			Deadline: at.AddDate(0, 0, 7), DateOnly: true, CreatedAt: at,
		}},
	}))
	defer srv.Close()

	client, err := apiclient.NewClient(srv.URL, recordstest.DefaultKey)
	if err != nil {
		panic(err)
	}
	list, err := client.ListActions(context.Background(), nil)
	if err != nil {
		panic(err)
	}
	for _, a := range list.Actions {
		fmt.Println(a.ID, a.Status, a.Assignee.Email, a.Deadline.Format(time.DateOnly), a.Committee)
	}
	// A meeting is found by its reference too, whatever the case.
	mins, err := client.GetMinutes(context.Background(), "fin-2026-07")
	if err != nil {
		panic(err)
	}
	fmt.Println(mins.Status, mins.Body)
	// Output:
	// FIN-2026-07/1 open alice@example.org 2026-07-21 Finance
	// approved # Minutes
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
