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
// Envelopes. A list is a bare JSON array (row APIs such as PostgREST), or
// an object with the array under "data" (also JSON:API), "items",
// "results", "value" (OData) or the resource name ("actions", "meetings"),
// the first of those that is an array winning, else HAL's
// "_embedded.<resource>" (or _embedded's only array); null there is an
// empty list. Every element must be an object. A single record is a bare
// object, a one-element array, or an object under "data" or under its own
// name ("action", "meeting", "minutes"); such a wrapper is only unwrapped
// when the outer object has no member that marks the record itself (an id
// or title; for minutes, a body or URL), so a record that merely has a
// "data" field stays whole, while an envelope's own "status"
// ({"status": "success", "data": {...}}) does not stop unwrapping. Fields
// inside a JSON:API "attributes" object count as the record's own, after
// those outside it. Member names, of records and envelopes alike, match in
// every casing: "due_date", "dueDate", "due-date" and "DueDate" are one name.
//
// Pagination (lists). The next page is, in this order of preference:
//   - none, when the body says "has_more": false;
//   - the target of the first Link header link (RFC 8288; several header
//     fields and several links per field, quoted or bare parameters, one or
//     more relation types) with relation type "next", resolved against the
//     URL of the page that carried it;
//   - the body's "next", "next_url", "nextLink" or "@odata.nextLink": an
//     absolute http(s) URL or a reference starting with "/" or "?"
//     (resolved the same way); an object's "href" (JSON:API and HAL link
//     objects); a number, sent back as ?page=; any other string, sent back
//     as ?cursor=;
//   - "next_cursor", sent back as ?cursor=; else "cursor", unless it equals
//     the cursor just sent (some servers echo the current one);
//   - "next_page", sent back as ?page= (or followed, if it is a URL);
//   - "page" (or "current_page") with "total_pages" (or "last_page"): the
//     next page number while page < total_pages;
//   - "has_more": true: ?page= one past "page", else past the page just
//     requested (1 when none was);
//   - a Content-Range header ("0-99/1234", "items 0-99/*"; the answer may be
//     206 Partial Content) or a body "offset": ?offset= one past the last
//     record and ?limit= the limit asked for (else the page's length), until
//     the total is reached or, with no total, a page comes back empty or
//     short. A server that answers another offset than the one asked for is
//     not followed.
//
// These fields are read at the top level of the list object and, failing
// that, under its "meta", "pagination" and "links" (or HAL "_links")
// objects. Other query parameters (the status filter) are kept when a
// cursor, page or offset is set. The list's total comes from "total",
// "count", "total_count", "@odata.count" (and a few spellings more), else
// the Content-Range total, else X-Total-Count.
//
// A next URL must be on the base URL's scheme and host (default ports made
// explicit) with no user info: a hostile or confused server cannot make the
// client send the API key elsewhere. Such a link is not followed; the list
// is returned as truncated. Redirects are held to the same rule by the
// default HTTP client.
//
// Nothing is cut short silently. [Client.ListActions] follows pages to the
// end, but stops at 200 pages or 100,000 actions (see [WithListLimits]),
// when a next URL repeats one already read or leaves the host, or when the
// server announces a total larger than it let the client read; it then
// returns what it has with [ActionList.Truncated], TruncatedReason and
// Total set. [Client.ListMeetings] reads one page and returns the next page
// as an opaque [MeetingPage.Next] token (the next request URI, which is
// checked again when used), or Truncated when there is more it cannot
// reach.
//
// Fields. Each record has one alias table (actionFields, meetingFields,
// agendaFields, minutesFields in this package) listing, for every field,
// the member names it is read from in priority order; docs/records-client.md lists
// them, checked by a test. The first present, non-null and usable alias
// wins (assignees merge: a later alias only fills what is still empty),
// and a duplicated key counts once, first occurrence first. A dotted alias
// is a path into nested objects ("meeting.id"). A [FieldMap]
// (RECORDS_FIELD_MAP) puts an installation's own names before the
// built-in ones. Identifiers may be JSON strings or numbers; numbers keep
// their literal text (42 is "42", never 4.2e1). Unknown fields are kept:
// Raw holds the record's bytes exactly as sent, as a copy that outlives the
// call (all records of a page share one copy, and one string for their
// text fields; clone Raw to keep a single record for long). In lists of
// actions Raw is filled only with [WithRawRecords] (the self-check's
// [Client.Inspect] always has it): a list the bot keeps would otherwise hold
// every page it came in.
//
// Some fields are read in a particular way. An action's status that is a
// documented status in any letter case becomes its constant; anything else
// is kept as sent. An assignee object gives "email", "name", "id" (string
// or number) and "slack_id"; a string is an email when it contains "@", a
// Slack user ID when it looks like one (also "<@U123ABC>" mentions),
// otherwise a name. A committee or location is a string, or an object's
// "name", else "title". An agenda is the first array among its aliases,
// each item an object or a bare string taken as the title. A minutes body
// is HTML when it came from "html" or "format" is "html" or "text/html",
// Markdown otherwise; their URL must be an absolute http(s) URL; their
// meeting id defaults to the one asked for. Only minutes with status
// approved or published_draft (compared ignoring letter case and
// surrounding space) are returned; any other status, or none, is
// [ErrNotFound] even when the server sent the minutes.
//
// Checking a service. [Client.Inspect] reads the first pages of every
// endpoint and reports what it recognised (envelope, pagination scheme,
// which of the bot's fields were found under which names, unmapped members
// with a sample, date formats, id types, counts, the visible-minutes rule
// and the scopes as exercised), for an installer's self-check before going
// live.
//
// Times are RFC 3339 (fractional seconds optional; a space instead of the
// T and a missing zone, read as UTC, are accepted too) or a YYYY-MM-DD date,
// which becomes midnight UTC with the HasTime flag false. Anything else
// leaves the time zero; it is not an error.
//
// Errors. A non-2xx answer becomes an [*Error] with the method, the
// endpoint's path template, the status code and the server's message: a
// JSON string body, or the first of a JSON object's "message", "detail",
// "error_description", "error.message", "errors[0].message", ".detail" or
// ".title" (JSON:API), or "errors[0]" as a string, "error" (a string: often only a code, hence late) and
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
// Conditional requests. When a page of actions comes with an ETag or a
// Last-Modified, the client remembers the page's decoded records under the
// page's URL (bounded, see [WithConditionalRequests]) and asks for it next
// time with If-None-Match or If-Modified-Since; a 304 Not Modified is
// served from memory without a download or a decode. Every page is
// revalidated on its own: an ETag covers one representation, one page,
// never the list. A 304 to a request that was not conditional is
// [ErrInvalidResponse].
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
