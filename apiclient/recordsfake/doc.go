// Package recordsfake is an in-memory Records API v1 server, the records
// service `recordsbot sandbox` serves and `recordsbot demo` runs beside
// the bot, in the manner of net/http/httptest:
//
//	srv := recordsfake.NewServer(recordsfake.WithDataset(recordsfake.Dataset{
//		Actions: []recordsfake.Action{{ID: "FIN-2026-07/1", Title: "Circulate the forecast", Status: "open"}},
//	}))
//	defer srv.Close()
//	client, err := apiclient.NewClient(srv.URL, recordsfake.DefaultKey)
//
// It is a fake of the records service only and holds no organisation of
// its own: the organisation is internal/sampleorg's, the demo's story
// package demo's.
//
// It speaks JSON over HTTP only and does not depend on the client, so a
// client bug cannot hide in shared code. What only tests use (the journal
// of requests, injected faults, other REST dialects, ETags) is package
// recordstest's, built on [WithRoutes] and [WithMiddleware], so the
// binary does not link it.
//
// # Wire format
//
// The interface document (records-api-v1.md) leaves shapes, pagination and
// errors unspecified; this server fixes them as follows. Every request
// needs "Authorization: Bearer KEY"; paths are relative to .../api/v1.
//
//	GET /actions[?status=S][&cursor=C]          scope actions:read
//	    {"data": [ACTION...], "next_cursor": "C"}  next_cursor absent on the last page
//	PUT /actions/{id}  {"status": "S"}          scope actions:write
//	    {"data": ACTION}
//	GET /meetings[?page=N]                      scope meetings:read
//	    {"meetings": [MEETING...]}                 Link: <URL?page=N+1>; rel="next"
//	GET /meetings/{id-or-reference}             scope meetings:read
//	    {"data": MEETING + "agenda": [{"number": 1, "title", "description"}...]}
//	GET /meetings/{id-or-reference}/minutes     scope meetings:read
//	    {"minutes": {"status", "body" | "html", "url", "published_at"}}
//
// ACTION is {"id", "title", "status", "assignee": {"email", "name"},
// "due_date": "2026-07-14" or "deadline": RFC 3339, "meeting": {"id",
// "title"}, "committee", "created_at"}; MEETING is {"id", "reference",
// "title", "committee", "date" (RFC 3339), "location"}. Empty fields are
// left out. S is one of open, in_progress, complete, cancelled, deferred.
// IDs in paths are single escaped segments ("A%2F1" is "A/1").
//
// Errors are {"error": CODE, "message": "..."}, CODE being the status text
// in snake case: 400 bad_request (unknown status, bad body, bad cursor or
// page), 401 unauthorized (no or unknown key), 403 forbidden ("missing
// scope actions:write"), 404 not_found (no such record or endpoint, or
// minutes not approved or published_draft), 405 method_not_allowed (with
// Allow).
package recordsfake
