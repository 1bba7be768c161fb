package recordstest

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strings"
	"unicode"
)

// Dialect is the REST convention the server speaks: its envelopes,
// pagination and the shape of a PUT answer. Records API v1 leaves them
// "not shown", so a real service may use any of these; each follows the
// published convention, inconvenient parts included.
type Dialect int

// The dialects.
const (
	// Plain is the server's own form (see the package documentation).
	Plain Dialect = iota
	// JSONAPI follows https://jsonapi.org/format/: {"data": [{"type",
	// "id", "attributes", "relationships"}], "links": {"next"}, "meta":
	// {"total"}}; pages by ?page[number]=&page[size]=, next links absolute
	// for actions and relative for meetings (both are allowed). An action's
	// meeting is a relationship (its title is not repeated). PUT answers
	// {"data": resource}.
	JSONAPI
	// HAL follows https://datatracker.ietf.org/doc/html/draft-kelly-json-hal
	// as Spring Data REST serves it: {"_embedded": {"actions": [...]},
	// "_links": {"self", "next": {"href": relative}}, "total"}; pages by
	// zero-based ?page=&size=. PUT answers the row.
	HAL
	// OData follows the OData JSON Format v4.01
	// (https://docs.oasis-open.org/odata/odata-json-format/v4.01/):
	// {"@odata.context", "value": [...], "@odata.nextLink": absolute, with
	// $skip}; "@odata.count" only when the request asks $count=true. PUT
	// answers 204 No Content, OData's default.
	OData
	// PostgREST follows
	// https://docs.postgrest.org/en/latest/references/api/pagination_count.html:
	// a bare array; pages by ?offset=&limit= or a "Range: 0-99" request
	// header; answers Content-Range "0-99/*" (with the total, and 206
	// Partial Content when the page is not all of it, only when the request
	// sends "Prefer: count=exact"); a single record is a one-element array;
	// PUT answers 204 No Content.
	PostgREST
)

// String returns the dialect's name.
func (d Dialect) String() string {
	switch d {
	case JSONAPI:
		return "JSON:API"
	case HAL:
		return "HAL"
	case OData:
		return "OData"
	case PostgREST:
		return "PostgREST"
	}
	return "plain"
}

// Casing is how the server spells multi-word member names.
type Casing int

// The casings. In the Plain dialect every member name is recased, the
// envelope's too ("nextCursor"); in the others only the records' own
// members, since JSON:API, HAL and OData fix the spelling of theirs.
const (
	Snake  Casing = iota // due_date, the default
	Camel                // dueDate
	Kebab                // due-date
	Pascal               // DueDate
)

// PutAnswer is how the server answers a successful PUT /actions/{id}.
type PutAnswer int

// The PUT answers. DialectDefault is the dialect's own: an envelope for
// Plain and JSON:API, the row for HAL, 204 for OData and PostgREST.
const (
	DialectDefault PutAnswer = iota
	PutRow                   // the updated row, bare
	PutArray                 // the row in a one-element array
	PutEnvelope              // {"data": row}
	PutNoContent             // 204 No Content, no body
)

// WithDialect makes the server speak d (default [Plain]).
func WithDialect(d Dialect) Option { return func(c *config) { c.dialect = d } }

// WithCasing makes the server spell multi-word member names in cs
// (default [Snake]).
func WithCasing(cs Casing) Option { return func(c *config) { c.casing = cs } }

// WithPutAnswer sets how a successful PUT is answered (default: the
// dialect's own).
func WithPutAnswer(p PutAnswer) Option { return func(c *config) { c.putAnswer = p } }

// resolve returns the answer p stands for in dialect d.
func (p PutAnswer) resolve(d Dialect) PutAnswer {
	if p != DialectDefault {
		return p
	}
	switch d {
	case HAL:
		return PutRow
	case OData, PostgREST:
		return PutNoContent
	}
	return PutEnvelope
}

// recase rewrites the member names of every JSON body next writes into
// casing cs.
func recase(cs Casing, next http.Handler) http.Handler {
	if cs == Snake {
		return next
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rec := &bufferedWriter{header: w.Header()}
		next.ServeHTTP(rec, r)
		body := rec.body.Bytes()
		if strings.HasPrefix(w.Header().Get("Content-Type"), "application/json") && len(body) > 0 {
			var v any
			dec := json.NewDecoder(bytes.NewReader(body))
			dec.UseNumber()
			if err := dec.Decode(&v); err == nil {
				if b, err := json.Marshal(recaseValue(v, cs)); err == nil {
					body = append(b, '\n')
				}
			}
		}
		if rec.status == 0 {
			rec.status = http.StatusOK
		}
		w.WriteHeader(rec.status)
		_, _ = w.Write(body) // the client hung up; nothing to do
	})
}

// bufferedWriter holds a response so it can be rewritten.
type bufferedWriter struct {
	header http.Header
	status int
	body   bytes.Buffer
}

func (b *bufferedWriter) Header() http.Header { return b.header }
func (b *bufferedWriter) WriteHeader(code int) {
	if b.status == 0 {
		b.status = code
	}
}
func (b *bufferedWriter) Write(p []byte) (int, error) {
	if b.status == 0 {
		b.status = http.StatusOK
	}
	return b.body.Write(p)
}

func recaseValue(v any, cs Casing) any {
	if cs == Snake {
		return v
	}
	switch v := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(v))
		for k, x := range v {
			out[recaseName(k, cs)] = recaseValue(x, cs)
		}
		return out
	case []any:
		for i, x := range v {
			v[i] = recaseValue(x, cs)
		}
	}
	return v
}

// recaseName spells the snake_case name k in casing cs.
func recaseName(k string, cs Casing) string {
	if cs == Snake || k == "" || k[0] == '@' || k[0] == '_' {
		return k
	}
	words := strings.Split(k, "_")
	for i, w := range words {
		if w == "" {
			continue
		}
		switch {
		case cs == Pascal || (cs == Camel && i > 0):
			words[i] = string(unicode.ToUpper(rune(w[0]))) + w[1:]
		}
	}
	if cs == Kebab {
		return strings.Join(words, "-")
	}
	return strings.Join(words, "")
}
