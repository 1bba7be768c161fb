package recordstest

import (
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/recordsbot/recordsbot/apiclient/recordsfake"
)

// dialectRoutes lists the endpoints as cfg's dialect serves rec. Errors
// keep the server's own {"error", "message"} form in every dialect.
func dialectRoutes(rec recordsfake.Records, sizes recordsfake.PageSizes, cfg *config) []recordsfake.Route {
	d, cs := cfg.dialect, cfg.casing
	rts := rec.Routes(sizes)
	// serve replaces the handler of the service's own endpoint.
	serve := func(method, pattern string, h http.Handler) {
		for i := range rts {
			if rts[i].Method == method && rts[i].Pattern == pattern {
				rts[i].Handler = h
			}
		}
	}
	if d != Plain {
		actions := func(status string, offset, limit int) ([]map[string]any, int) {
			rows, total := rec.ActionsAt(status, offset, limit)
			for i, row := range rows {
				rows[i] = casedRecord(d, cs, shapeAction(d, row))
			}
			return rows, total
		}
		meetings := func(_ string, offset, limit int) ([]map[string]any, int) {
			rows, total := rec.MeetingsAt(offset, limit)
			for i, m := range rows {
				rows[i] = casedRecord(d, cs, shapeRecord(d, "meetings", m))
			}
			return rows, total
		}
		serve(http.MethodGet, "/actions", handleDialectList(d, "actions", sizes.Actions, actions))
		serve(http.MethodGet, "/meetings", handleDialectList(d, "meetings", sizes.Meetings, meetings))
		serve(http.MethodGet, "/meetings/{id}", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			m, ok := rec.Meeting(w, r)
			if !ok {
				return
			}
			writeSingle(w, r, d, "meetings", casedRecord(d, cs, shapeRecord(d, "meetings", m)))
		}))
		serve(http.MethodGet, "/meetings/{id}/minutes", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			m, meetingID, ok := rec.Minutes(w, r)
			if !ok {
				return
			}
			if d == JSONAPI {
				// Minutes have no id of their own; JSON:API needs one.
				m["id"] = meetingID
			}
			writeSingle(w, r, d, "minutes", casedRecord(d, cs, shapeRecord(d, "minutes", m)))
		}))
	}
	put := cfg.putAnswer.resolve(d)
	serve(http.MethodPut, "/actions/{id}", rec.UpdateAction(func(w http.ResponseWriter, r *http.Request, row map[string]any) {
		row = casedRecord(d, cs, shapeAction(d, row))
		if d == HAL {
			row = halSelf(r.URL.EscapedPath(), row)
		}
		switch put {
		case PutNoContent:
			w.WriteHeader(http.StatusNoContent)
		case PutArray:
			writeJSON(w, http.StatusOK, []any{row})
		case PutEnvelope:
			writeJSON(w, http.StatusOK, map[string]any{"data": row})
		default:
			writeJSON(w, http.StatusOK, row)
		}
	}))
	return rts
}

// writeJSON writes as the records service does.
func writeJSON(w http.ResponseWriter, status int, v any) { recordsfake.WriteJSON(w, status, v) }

// casedRecord spells the record's own member names in cs. The members a
// convention defines (JSON:API's type, id, attributes and relationships;
// HAL's _links; OData's @ annotations) keep their spelling, as those
// conventions require.
func casedRecord(d Dialect, cs Casing, rec map[string]any) map[string]any {
	if d == JSONAPI {
		if attrs, ok := rec["attributes"].(map[string]any); ok {
			rec["attributes"] = recaseValue(attrs, cs)
		}
		return rec
	}
	return recaseValue(rec, cs).(map[string]any)
}

// writeSingle answers one record, already shaped, in dialect d.
func writeSingle(w http.ResponseWriter, r *http.Request, d Dialect, typ string, rec map[string]any) {
	switch d {
	case JSONAPI:
		writeJSON(w, http.StatusOK, map[string]any{"data": rec})
	case HAL:
		writeJSON(w, http.StatusOK, halSelf(r.URL.EscapedPath(), rec))
	case OData:
		rec["@odata.context"] = absURL(r, strings.TrimSuffix(r.URL.EscapedPath(), "/"+typ)+"/$metadata#"+typ+"/$entity", nil)
		writeJSON(w, http.StatusOK, rec)
	case PostgREST:
		writeJSON(w, http.StatusOK, []any{rec})
	default:
		writeJSON(w, http.StatusOK, map[string]any{"data": rec})
	}
}

// handleDialectList serves a list in dialect d, paged the dialect's way.
func handleDialectList(d Dialect, resource string, pageSize int, rows func(status string, offset, limit int) ([]map[string]any, int)) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query()
		status := q.Get("status")
		if resource == "actions" && !recordsfake.CheckStatus(w, status) {
			return
		}
		offset, limit, perr := paging(d, r, pageSize)
		if perr != "" {
			recordsfake.WriteError(w, http.StatusBadRequest, perr)
			return
		}
		items, total := rows(status, offset, limit)
		more := offset+len(items) < total
		path := r.URL.EscapedPath()
		switch d {
		case JSONAPI:
			body := map[string]any{"data": items, "meta": map[string]any{"total": total}}
			if more {
				q.Set("page[number]", strconv.Itoa(offset/limit+2))
				q.Set("page[size]", strconv.Itoa(limit))
				next := path + "?" + q.Encode()
				if resource == "actions" {
					next = absURL(r, path, q)
				}
				body["links"] = map[string]any{"next": next}
			}
			writeJSON(w, http.StatusOK, body)
		case HAL:
			for i := range items {
				items[i] = halSelf(path, items[i])
			}
			links := map[string]any{"self": map[string]any{"href": path + queryPart(r.URL.Query())}}
			if more {
				q.Set("page", strconv.Itoa(offset/limit+1)) // zero-based, as Spring Data REST
				q.Set("size", strconv.Itoa(limit))
				links["next"] = map[string]any{"href": path + "?" + q.Encode()}
			}
			writeJSON(w, http.StatusOK, map[string]any{"_embedded": map[string]any{resource: items}, "_links": links, "total": total})
		case OData:
			body := map[string]any{"@odata.context": absURL(r, strings.TrimSuffix(path, "/"+resource)+"/$metadata#"+resource, nil), "value": items}
			if q.Get("$count") == "true" {
				body["@odata.count"] = total
			}
			if more {
				q.Set("$skip", strconv.Itoa(offset+len(items)))
				body["@odata.nextLink"] = absURL(r, path, q)
			}
			writeJSON(w, http.StatusOK, body)
		case PostgREST:
			writePostgREST(w, r, items, offset, total)
		}
	})
}

// writePostgREST answers a page of rows as PostgREST does: the range in
// Content-Range, its total only when counted on request, and 206 when the
// page is known to be part of the whole.
func writePostgREST(w http.ResponseWriter, r *http.Request, items []map[string]any, offset, total int) {
	counted := strings.Contains(r.Header.Get("Prefer"), "count=exact")
	tot := "*"
	if counted {
		tot = strconv.Itoa(total)
	}
	status := http.StatusOK
	if len(items) == 0 {
		w.Header().Set("Content-Range", "*/"+tot)
	} else {
		w.Header().Set("Content-Range", fmt.Sprintf("%d-%d/%s", offset, offset+len(items)-1, tot))
		if counted && len(items) < total {
			status = http.StatusPartialContent
		}
	}
	if items == nil {
		items = []map[string]any{}
	}
	writeJSON(w, status, items)
}

// paging reads the page a list request asks for in dialect d: its offset
// and limit (capped at pageSize, as a server's maximum page size is), or a
// message for 400.
func paging(d Dialect, r *http.Request, pageSize int) (offset, limit int, errMsg string) {
	q := r.URL.Query()
	num := func(name string, min int) (int, bool) {
		v := q.Get(name)
		if v == "" {
			return -1, true
		}
		n, err := strconv.Atoi(v)
		return n, err == nil && n >= min
	}
	limit = pageSize
	var ok bool
	switch d {
	case JSONAPI:
		// page[number] counts from 1 (JSON:API's page strategy).
		return numberedPage(num, pageSize, "page[number]", "page[size]", 1)
	case HAL:
		// Spring Data's page counts from 0.
		return numberedPage(num, pageSize, "page", "size", 0)
	case OData:
		var skip, top int
		if skip, ok = num("$skip", 0); !ok {
			return 0, 0, "invalid $skip"
		}
		if top, ok = num("$top", 1); !ok {
			return 0, 0, "invalid $top"
		}
		offset, limit = max(skip, 0), pageSize
		if top > 0 {
			limit = min(top, pageSize)
		}
	case PostgREST:
		// limit and offset take precedence over a Range header; either way
		// the answer carries Content-Range "first-last/*", the total only
		// when counted on request
		// (https://docs.postgrest.org/en/latest/references/api/pagination_count.html).
		if rg := r.Header.Get("Range"); rg != "" && q.Get("offset") == "" && q.Get("limit") == "" {
			// Range: 0-99 (with Range-Unit: items), an inclusive range.
			a, b, found := strings.Cut(strings.TrimPrefix(rg, "items="), "-")
			first, err1 := strconv.Atoi(a)
			last, err2 := strconv.Atoi(b)
			if !found || err1 != nil || first < 0 || (b != "" && (err2 != nil || last < first)) {
				return 0, 0, "invalid Range"
			}
			offset = first
			if b != "" {
				limit = min(last-first+1, pageSize)
			}
			return offset, limit, ""
		}
		var off, lim int
		if off, ok = num("offset", 0); !ok {
			return 0, 0, "invalid offset"
		}
		if lim, ok = num("limit", 0); !ok {
			return 0, 0, "invalid limit"
		}
		offset = max(off, 0)
		if lim >= 0 {
			limit = min(lim, pageSize)
		}
	}
	return offset, limit, ""
}

// numberedPage reads a page-number convention: the page parameter (whose
// first page is first) and the size parameter, capped at pageSize.
func numberedPage(num func(name string, min int) (int, bool), pageSize int, pageParam, sizeParam string, first int) (offset, limit int, errMsg string) {
	page, ok := num(pageParam, first)
	if !ok {
		return 0, 0, "invalid " + pageParam
	}
	size, ok := num(sizeParam, 1)
	if !ok {
		return 0, 0, "invalid " + sizeParam
	}
	limit = pageSize
	if size > 0 {
		limit = min(size, pageSize)
	}
	if page > first {
		if page > 1<<20 {
			return 0, 0, pageParam + " too large"
		}
		offset = (page - first) * limit
	}
	return offset, limit, ""
}

// shapeAction shapes an action record for dialect d: in JSON:API its
// meeting becomes a relationship, as JSON:API models links between
// resources (the meeting's title is not repeated in the action).
func shapeAction(d Dialect, rec map[string]any) map[string]any {
	if d != JSONAPI {
		return rec
	}
	var rel map[string]any
	if m, ok := rec["meeting"].(map[string]any); ok {
		rel = map[string]any{"meeting": map[string]any{"data": map[string]any{"type": "meetings", "id": m["id"]}}}
		delete(rec, "meeting")
	}
	out := shapeRecord(d, "actions", rec)
	if rel != nil {
		out["relationships"] = rel
	}
	return out
}

// shapeRecord shapes a record as a JSON:API resource object in dialect
// JSONAPI, and leaves it as it is otherwise.
func shapeRecord(d Dialect, typ string, rec map[string]any) map[string]any {
	if d != JSONAPI {
		return rec
	}
	id := rec["id"]
	delete(rec, "id")
	return map[string]any{"type": typ, "id": id, "attributes": rec}
}

// halSelf adds HAL's _links.self to a record, its href relative: the list
// path plus the record's escaped id, or path itself for a single record.
func halSelf(path string, rec map[string]any) map[string]any {
	href := path
	if strings.HasSuffix(path, "/actions") || strings.HasSuffix(path, "/meetings") {
		for k, v := range rec {
			if id, ok := v.(string); ok && strings.EqualFold(k, "id") {
				href += "/" + url.PathEscape(id)
			}
		}
	}
	rec["_links"] = map[string]any{"self": map[string]any{"href": href}}
	return rec
}

// absURL is the absolute URL of path with query q on the host r reached.
func absURL(r *http.Request, path string, q url.Values) string {
	scheme := "http"
	if r.TLS != nil {
		scheme = "https"
	}
	return scheme + "://" + r.Host + path + queryPart(q)
}

func queryPart(q url.Values) string {
	if len(q) == 0 {
		return ""
	}
	return "?" + q.Encode()
}
