package apiclient

import (
	"bytes"
	"slices"

	"github.com/valyala/fastjson"
)

// parseListLean parses a list without building one parse tree for the
// whole body. fastjson's tree costs about 80 bytes per JSON value and its
// parser keeps it for reuse, so a 6.5 MB page of 20,000 records held
// about 120 MB for as long as the pooled decoder lived. Here the records' array
// is found by scanning, the envelope is parsed with the array left out,
// and decodeList parses each record on its own (parser memory bounded by
// the largest record).
//
// It handles the common shapes: a bare array, and an object with the
// records directly under one of its members (data, items, results, value
// or the resource name). ok is false for anything else (HAL's nested
// _embedded, escaped member names, anything malformed), which the caller
// then parses whole, as before, so that every form keeps working and every
// malformed body fails with the full parser's message.
func (d *decoder) parseListLean(body []byte, resource string) (lp listPage, ok bool) {
	root := rootSpan(body)
	if root.start >= root.end {
		return lp, false
	}
	// Each scan finds the records' spans as it goes (arraySpans): the
	// body is read once before the records are parsed.
	switch body[root.start] {
	case '[':
		spans, end, err := arraySpans(body, root.start, d.spans[:0])
		d.spans = spans
		if err != nil || end != root.end {
			return lp, false
		}
		lp.envelope = "array"
	case '{':
		s, at, spans, found := topListMember(body, root, resource, d.spans[:0])
		d.spans = spans
		if !found {
			return lp, false
		}
		// The envelope alone, with "[]" in place of the records: its page
		// fields and member name come from the same code as a whole parse.
		d.skel = append(append(append(d.skel[:0], body[:s.start]...), "[]"...), body[s.end:]...)
		v, err := d.p.ParseBytes(d.skel)
		o := object(v)
		if err != nil || o == nil {
			return lp, false
		}
		path, name, mv := listMember(o, resource)
		if len(path) != 1 || mv == nil || mv.Type() != fastjson.TypeArray {
			return lp, false
		}
		// The member the full parse would pick must be the one scanned:
		// the envelope has the body's members in the body's order.
		if path[0] != at {
			return lp, false
		}
		lp.page.from(o)
		lp.envelope = name
	default:
		return lp, false
	}
	lp.lean = true
	d.keepRaw(&lp, body)
	return lp, true
}

// topListMember scans the members of the object spanning root and returns
// the span of the array listMember would choose among the direct members
// (the first of listMembers, then the resource name, whose (first) value
// is an array), its index among the members and its elements' spans,
// appended to dst. found is false when there is none, when a member name
// has an escape (the scanner does not unescape), or when the object is
// malformed.
func topListMember(body []byte, root span, resource string, dst []span) (arr span, index int, spans []span, found bool) {
	const n = len(listMembers)
	var (
		cand  [n + 1]span // listMembers then the resource
		at    [n + 1]int
		seen  [n + 1]bool
		buf   [64]byte
		count int
		best  = -1
	)
	i := skipWS(body, root.start+1)
	if i < len(body) && body[i] == '}' {
		return span{}, 0, dst, false
	}
	for {
		if i >= len(body) || body[i] != '"' {
			return span{}, 0, dst, false
		}
		j, err := skipString(body, i)
		if err != nil {
			return span{}, 0, dst, false
		}
		key := body[i+1 : j-1]
		if bytes.IndexByte(key, '\\') >= 0 {
			return span{}, 0, dst, false
		}
		i = skipWS(body, j)
		if i >= len(body) || body[i] != ':' {
			return span{}, 0, dst, false
		}
		i = skipWS(body, i+1)
		nk := normKey(buf[:0], key)
		k := slices.Index(listMembers[:], string(nk))
		if k < 0 && string(nk) == resource {
			k = n
		}
		var end int
		// The elements of the best array candidate so far are scanned as
		// it is skipped; a better one later scans its own.
		if k >= 0 && !seen[k] && i < len(body) && body[i] == '[' && (best < 0 || k < best) {
			dst, end, err = arraySpans(body, i, dst[:0])
			best = k
		} else {
			end, err = skipValue(body, i)
		}
		if err != nil {
			return span{}, 0, dst, false
		}
		// Like listMember, the first occurrence of a name counts.
		if k >= 0 && !seen[k] {
			seen[k], cand[k], at[k] = true, span{i, end}, count
		}
		count++
		i = skipWS(body, end)
		if i >= len(body) {
			return span{}, 0, dst, false
		}
		if body[i] == '}' {
			break
		}
		if body[i] != ',' {
			return span{}, 0, dst, false
		}
		i = skipWS(body, i+1)
	}
	// The first candidate holding an array is the best one, whose
	// elements were scanned.
	if best < 0 {
		return span{}, 0, dst, false
	}
	return cand[best], at[best], dst, true
}
