// Package apiclient is a client for the Meeting Records API v1: the action
// log (list, update status) and meetings (list, detail, minutes). It knows
// nothing of Slack.
//
// One [Client] serves every endpoint; each method takes a context first and
// documents the errors it returns. Every error wraps exactly one of the
// sentinel errors ([ErrNotFound], [ErrForbidden], ...) and is usually an
// [*Error] with the detail.
//
// # What the client accepts
//
// The v1 interface leaves record fields, envelopes, pagination and errors
// "not shown", so the client accepts the common forms below. Anything else
// is [ErrInvalidResponse], never a silent guess.
//
// Envelopes. A list is a bare JSON array, or an object with the array under
// "data", "items", "results" or the resource name ("actions", "meetings"),
// the first of those that is an array winning; null there is an empty
// list. Every element must be an object. A single record is a bare object,
// or an object under "data" or under its own name ("action", "meeting",
// "minutes"); such a wrapper is only unwrapped when the outer object has no
// field of the record itself (an id or title; for minutes, a body or URL),
// so a record that merely has a "data" field stays whole, while an
// envelope's own "status" ({"status": "success", "data": {...}}) does not
// stop unwrapping. Fields
// inside a JSON:API "attributes" object count as the record's own, after
// those outside it.
//
// Pagination (lists). The next page is, in this order of preference:
//   - none, when the body says "has_more": false;
//   - the target of the first Link header link (RFC 8288; several header
//     fields and several links per field, quoted or bare parameters, one or
//     more relation types) with relation type "next", resolved against the
//     URL of the page that carried it;
//   - the body's "next" or "next_url": an absolute http(s) URL or a
//     reference starting with "/" or "?" (resolved the same way); an
//     object's "href"; a number, sent back as ?page=; any other string, sent
//     back as ?cursor=;
//   - "next_cursor", sent back as ?cursor=; else "cursor", unless it equals
//     the cursor just sent (some servers echo the current one);
//   - "next_page", sent back as ?page= (or followed, if it is a URL);
//   - "page" (or "current_page") with "total_pages" (or "last_page"): the
//     next page number while page < total_pages;
//   - "has_more": true: ?page= one past "page", else past the page just
//     requested (1 when none was).
//
// These fields are read at the top level of the list object and, failing
// that, under its "meta", "pagination" and "links" objects. Other query
// parameters (the status filter) are kept when a cursor or page is set.
// A next URL must be on the base URL's scheme and host (default ports made
// explicit) with no user info, or the call fails with [ErrInvalidResponse]:
// a hostile or confused server cannot make the client send the API key
// elsewhere. Redirects are held to the same rule by the default HTTP
// client.
//
// [Client.ListActions] follows pages to the end, but stops at 200 pages or
// 100,000 actions (see [WithListLimits]) and when a next URL repeats one
// already read; it then returns what it has with [ActionList.Truncated]
// set. [Client.ListMeetings] reads one page and returns the next page as
// an opaque [MeetingPage.Next] token (the next request URI, which is checked
// again when used).
//
// Fields. Identifiers may be JSON strings or numbers; numbers keep their
// literal text (42 is "42", never 4.2e1). Aliases are listed in priority
// order; the first present, non-null and usable one wins, and a duplicated
// key counts once, first occurrence first. Unknown fields are kept: Raw
// holds the record's bytes exactly as sent, as a copy that outlives the
// call (all records of a page share one copy, and one string for their
// text fields; clone Raw to keep a single record for long).
//
//   - Action: id from "id", "action_id", "row_id". Title from the first
//     non-empty string among "title", "description", "text", "summary",
//     "name". "status": a documented status in any letter case becomes its
//     constant; anything else is kept as sent. Assignee from "assignee",
//     "assigned_to", "owner", "assignee_email", merged in that order (a
//     later alias only fills fields still empty): an object gives "email",
//     "name", "id" (string or number) and "slack_id"; a string is an email
//     when it contains "@", a Slack user ID when it looks like one (also
//     "<@U123ABC>" mentions), otherwise a name. Deadline from "deadline",
//     "due", "due_date", "due_at" (see Times). Meeting id from
//     "meeting_id", else "meeting" (a scalar, or an object whose "id" and
//     "title" give the meeting id and title); meeting title also from
//     "meeting_title". Committee from "committee" or "committee_name" (a
//     string, or an object's "name", else "title").
//   - Meeting: id from "id", "meeting_id", "row_id"; reference from
//     "reference", "code", "number" (string or number); title from "title",
//     "name"; committee from "committee", "committee_name" (as for
//     actions); date from "date", "start", "starts_at", "scheduled_at",
//     "held_at"; location from "location" (a string or an object's "name",
//     else "title"). Agenda from the first array among "agenda",
//     "agenda_items", "items" (for [Client.GetMeeting] also beside a
//     wrapped meeting in its envelope): each item an object with title from
//     "title", "name", "text", number from "number", "position", "order"
//     (string or number) and description from "description", "notes"; or a
//     bare string, taken as the title.
//   - Minutes: "status" (compared ignoring letter case and surrounding
//     space); body from the first non-empty string among "body", "content",
//     "text", "minutes", "markdown", "html"; the format is HTML when the
//     body came from "html" or "format" is "html" or "text/html", Markdown
//     otherwise. URL from the first absolute http(s) URL among "url",
//     "public_url", "html_url". Date from "approved_at", "published_at",
//     "updated_at". Meeting id from "meeting_id", else "meeting" (scalar or
//     object with "id"), else the id that was asked for. Only minutes with
//     status approved or published_draft are returned; any other status,
//     or none, is [ErrNotFound] even when the server sent the minutes.
//
// Times are RFC 3339 (fractional seconds optional; a space instead of the
// T and a missing zone, read as UTC, are accepted too) or a YYYY-MM-DD date,
// which becomes midnight UTC with the HasTime flag false. Anything else
// leaves the time zero; it is not an error.
//
// Errors. A non-2xx answer becomes an [*Error] with the method, the
// endpoint's path template, the status code and the server's message: a
// JSON string body, or the first of a JSON object's "message", "detail",
// "error_description", "error.message", "errors[0].message" (or "errors[0]"
// as a string), "error" (a string: often only a code, hence late) and
// "title"; else a plain-text body (HTML error pages are ignored). Control
// and format characters are removed and the message is cut to about 200
// bytes. The API key is redacted from messages and causes. Kinds: 401
// [ErrUnauthorized]; 403 [ErrForbidden] with Scope set to the endpoint's
// scope (actions:read, actions:write, meetings:read); 404 and 410
// [ErrNotFound]; 429 [ErrRateLimited] with RetryAfter (delay seconds or an
// HTTP-date); 5xx, network errors and timeouts [ErrUnavailable] (when the
// caller's context ended, the error also matches context.Canceled or
// context.DeadlineExceeded); any other 4xx [ErrBadRequest]; an unexpected
// 1xx or 3xx, malformed JSON, the wrong shape, or a body over 32 MiB (see
// [WithMaxResponseBytes]) [ErrInvalidResponse].
//
// Retries. Every request is a GET or a PUT, both idempotent, so 429, 502,
// 503 and 504 answers and connection errors are retried, by default 3 times
// with a jittered exponential backoff from 100ms to 2s (see [WithRetry]), or
// after the server's Retry-After when it gives one (up to a minute; a longer
// one is returned at once). A 500 is not retried: it reports a failure of
// this very request, not a passing condition. A wait that would pass the
// context's deadline is not started; the error is returned at once, so that
// a caller with a short deadline can still tell its user the service is
// down.
package apiclient
