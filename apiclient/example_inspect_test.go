package apiclient_test

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/recordsbot/recordsbot/apiclient"
	"github.com/recordsbot/recordsbot/apiclient/recordstest"
)

// An installer's self-check prints what Inspect recognised, one line per
// finding. Here the service speaks OData with PascalCase fields, and the
// installer has mapped the deadline explicitly, which the report shows.
func ExampleClient_Inspect() {
	day := time.Date(2026, time.March, 2, 0, 0, 0, 0, time.UTC)
	srv := recordstest.NewServer(
		recordstest.WithDialect(recordstest.OData),
		recordstest.WithCasing(recordstest.Pascal),
		recordstest.WithDataset(recordstest.Dataset{
			Actions:  []recordstest.Action{{ID: "A1", Title: "Circulate the forecast", Status: "open", AssigneeEmail: "ann@example.org", Deadline: day, DateOnly: true, CreatedAt: day}},
			Meetings: []recordstest.Meeting{{ID: "M1", Title: "Finance", Date: day}},
			Minutes:  []recordstest.Minutes{{MeetingID: "M1", Status: "approved", Body: "Approved.", UpdatedAt: day}},
		}),
	)
	defer srv.Close()
	fm, err := apiclient.ParseFieldMap("action.deadline=due_date")
	if err != nil {
		panic(err)
	}
	c, err := apiclient.NewClient(srv.URL, recordstest.DefaultKey, apiclient.WithFieldMap(fm))
	if err != nil {
		panic(err)
	}
	in, err := c.Inspect(context.Background(), nil)
	if err != nil {
		panic(err)
	}
	for _, s := range in.Scopes {
		fmt.Printf("scope %s: %s\n", s.Scope, s.Result)
	}
	e := in.Endpoints[0]
	fmt.Printf("%s: envelope %s, pagination %s, %d records\n", e.Endpoint, e.Envelope, e.Pagination, e.Records)
	for _, f := range e.Fields {
		if len(f.FoundAs) > 0 {
			fmt.Printf("  %s from %s (field map: %t)\n", f.Field, strings.Join(f.FoundAs, ", "), f.FromFieldMap)
		}
	}
	for _, u := range e.Unmapped {
		fmt.Printf("  unmapped %s, e.g. %s\n", u.Name, u.Sample)
	}
	fmt.Println("  dates:", strings.Join(e.DateFormats, ", "))
	fmt.Println("minutes rule held:", in.MinutesRule.Held, "newest:", in.Counts.NewestVisibleMinutes)
	// Output:
	// scope actions:read: ok
	// scope meetings:read: ok
	// scope actions:write: not checked
	// GET /actions: envelope value, pagination none, 1 records
	//   action.id from Id (field map: false)
	//   action.title from Title (field map: false)
	//   action.status from Status (field map: false)
	//   action.assignee from Assignee (field map: false)
	//   action.deadline from DueDate (field map: true)
	//   unmapped CreatedAt, e.g. "2026-03-02T00:00:00Z"
	//   dates: YYYY-MM-DD
	// minutes rule held: true newest: M1
}
