package apiclient

import (
	"bytes"
	"fmt"
	"slices"

	"github.com/valyala/fastjson"
)

// listPage is a parsed list body.
type listPage struct {
	// items are the records when the whole body was parsed at once; nil
	// when lean (see parseListLean), and then each record is parsed on its
	// own from its span.
	items []*fastjson.Value
	lean  bool
	// raw holds a copy of the bytes from the first record to the last,
	// starting at body offset rawOff; nil when the decoder keeps no Raw.
	raw    []byte
	rawOff int
	// spans are the records' byte ranges in the body.
	spans []span
	page  pageFields
	// envelope names where the records were found: "array" for a bare
	// array, else the member ("data", "_embedded.actions").
	envelope string
}

// listMembers are the members a list may sit under, in order of
// preference, normalised; the resource name ("actions") comes after them,
// then HAL's "_embedded".
// An array, so that the scratch space sized by it stays on the stack.
var listMembers = [...]string{"data", "items", "results", "value"}

// parseList parses a list body: a bare array; an object with the array
// under data, items, results, value (OData) or the resource name; or a HAL
// object with it under _embedded.<resource> (else _embedded's only array).
func (d *decoder) parseList(body []byte, resource string) (listPage, error) {
	if !d.whole {
		if lp, ok := d.parseListLean(body, resource); ok {
			return lp, nil
		}
	}
	var lp listPage
	root, err := d.p.ParseBytes(body)
	if err != nil {
		return lp, fmt.Errorf("parse %s list: %w", resource, err)
	}
	arrStart := 0
	switch root.Type() {
	case fastjson.TypeArray:
		lp.items = root.GetArray()
		arrStart = rootSpan(body).start
		lp.envelope = "array"
	case fastjson.TypeObject:
		o := root.GetObject()
		lp.page.from(o)
		path, name, v := listMember(o, resource)
		if path == nil {
			return lp, fmt.Errorf("parse %s list: no array under data, items, results, value, %s or _embedded", resource, resource)
		}
		lp.envelope = name
		if v.Type() == fastjson.TypeNull {
			return lp, nil
		}
		lp.items = v.GetArray()
		sp, err := memberSpan(body, path[0])
		for _, idx := range path[1:] {
			if err == nil {
				sp, err = memberSpanAt(body, sp.start, idx)
			}
		}
		if err != nil {
			return lp, fmt.Errorf("parse %s list: %w", resource, err)
		}
		arrStart = sp.start
	default:
		return lp, fmt.Errorf("parse %s list: body is a JSON %s, not an array or object", resource, root.Type())
	}
	if len(lp.items) == 0 {
		return lp, nil
	}
	d.spans, err = elementSpans(body, arrStart, d.spans[:0])
	if err != nil || len(d.spans) != len(lp.items) {
		return lp, fmt.Errorf("parse %s list: %w", resource, errSpan)
	}
	d.keepRaw(&lp, body)
	return lp, nil
}

// keepRaw sets lp.spans from d.spans and, unless the decoder drops Raw,
// copies the records' bytes. One copy backs every Raw of the page: cheaper
// than a copy per record, at the price of a retained Raw keeping its
// whole page alive.
func (d *decoder) keepRaw(lp *listPage, body []byte) {
	lp.spans = d.spans
	if d.noRaw || len(d.spans) == 0 {
		return
	}
	first, last := d.spans[0].start, d.spans[len(d.spans)-1].end
	lp.raw, lp.rawOff = bytes.Clone(body[first:last]), first
}

// rawOf returns the bytes of record i, or nil when the decoder keeps no
// Raw.
func (lp *listPage) rawOf(i int) []byte {
	if lp.raw == nil {
		return nil
	}
	s := lp.spans[i]
	return lp.raw[s.start-lp.rawOff : s.end-lp.rawOff : s.end-lp.rawOff]
}

// count is how many records the page holds.
func (lp *listPage) count() int {
	if lp.lean {
		return len(lp.spans)
	}
	return len(lp.items)
}

// listMember finds the member of o holding the list and returns the
// indices of the members leading to it (nil when there is none), its name
// as sent and its value, which may be null (an empty list).
func listMember(o *fastjson.Object, resource string) (path []int, name string, v *fastjson.Value) {
	const n = len(listMembers)
	var (
		cand [n + 2]*fastjson.Value // listMembers, resource, _embedded
		at   [n + 2]int
		key  [n + 2]string
		buf  [64]byte
		i    int
	)
	o.Visit(func(k []byte, v *fastjson.Value) {
		nk := normKey(buf[:0], k)
		j := slices.Index(listMembers[:], string(nk))
		switch {
		case j >= 0:
		case string(nk) == resource:
			j = n
		case string(nk) == "embedded" && len(k) > 0 && k[0] == '_':
			j = n + 1
		}
		if j >= 0 && cand[j] == nil {
			cand[j], at[j], key[j] = v, i, string(k)
		}
		i++
	})
	for j, v := range cand[:n+1] {
		if v != nil && v.Type() == fastjson.TypeArray {
			return []int{at[j]}, key[j], v
		}
	}
	if emb := object(cand[n+1]); emb != nil {
		if sub, subName, v := embedded(emb, resource); v != nil {
			return []int{at[n+1], sub}, key[n+1] + "." + subName, v
		}
	}
	for j, v := range cand[:n+1] {
		if v != nil && v.Type() == fastjson.TypeNull {
			return []int{at[j]}, key[j], v
		}
	}
	return nil, "", nil
}

// embedded finds the records in a HAL _embedded object: the array under
// the resource name, else the only array there.
func embedded(o *fastjson.Object, resource string) (idx int, name string, v *fastjson.Value) {
	var (
		buf    [64]byte
		i      int
		arrays int
		first  = -1
		fname  string
		fv     *fastjson.Value
	)
	idx = -1
	o.Visit(func(k []byte, val *fastjson.Value) {
		if val.Type() == fastjson.TypeArray {
			if idx < 0 && string(normKey(buf[:0], k)) == resource {
				idx, name, v = i, string(k), val
			}
			arrays++
			if first < 0 {
				first, fname, fv = i, string(k), val
			}
		}
		i++
	})
	if idx >= 0 {
		return idx, name, v
	}
	if arrays == 1 {
		return first, fname, fv
	}
	return -1, "", nil
}

// recordFunc fills out from the record object o, whose bytes are raw.
type recordFunc[T any] func(d *decoder, o *fastjson.Object, raw []byte, out *T)

// decodeList parses a list body and appends at most limit records to dst
// (limit < 0: all). It also returns how many records the page held.
func decodeList[T any](d *decoder, body []byte, resource string, dst []T, limit int, rec recordFunc[T]) ([]T, int, pageFields, error) {
	lp, err := d.parseList(body, resource)
	d.lastEnvelope = lp.envelope
	if err != nil {
		return dst, 0, lp.page, err
	}
	total := lp.count()
	n := total
	if limit >= 0 && n > limit {
		n = limit
	}
	// Growing first keeps &dst[i] stable until the arena is flushed.
	base := len(dst)
	dst = slices.Grow(dst, n)[:base+n]
	fail := func(err error) ([]T, int, pageFields, error) {
		d.strs.reset()
		clear(dst[base:])
		return dst[:base], 0, lp.page, err
	}
	for i := range total {
		var v *fastjson.Value
		if lp.lean {
			// One record's parse tree at a time: the parser's memory is
			// bounded by the largest record, not by the page.
			s := lp.spans[i]
			if v, err = d.p.ParseBytes(body[s.start:s.end]); err != nil {
				return fail(fmt.Errorf("parse %s list: record %d: %w", resource, i, err))
			}
		} else {
			v = lp.items[i]
		}
		if i >= n {
			// Past the limit: parsed only so that a malformed body fails
			// the same way whatever the limit.
			continue
		}
		o := object(v)
		if o == nil {
			return fail(fmt.Errorf("parse %s list: record %d: %w", resource, i, errNotObject("record", v)))
		}
		rec(d, o, lp.rawOf(i), &dst[base+i])
	}
	d.strs.flush()
	return dst, total, lp.page, nil
}

// parseRecord parses a single-record body. The record is the body itself,
// the only element of a one-element array (row APIs answer a PUT so), or
// the object under one of wrappers when the body has no member that t says
// marks a record (so a record that merely has a "data" field is not
// mistaken for an envelope). It returns the record, the envelope it was
// unwrapped from (nil if none) and a copy of the record's bytes.
func (d *decoder) parseRecord(body []byte, t *table, wrappers []string) (rec, outer *fastjson.Object, raw []byte, err error) {
	what := t.record
	root, err := d.p.ParseBytes(body)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("parse %s: %w", what, err)
	}
	sp := rootSpan(body)
	if root.Type() == fastjson.TypeArray {
		arr := root.GetArray()
		if len(arr) != 1 {
			return nil, nil, nil, fmt.Errorf("parse %s: body is an array of %d elements, not one record", what, len(arr))
		}
		spans, err := elementSpans(body, sp.start, d.spans[:0])
		if err != nil || len(spans) != 1 {
			return nil, nil, nil, fmt.Errorf("parse %s: %w", what, errSpan)
		}
		d.spans = spans
		root, sp = arr[0], spans[0]
	}
	o := object(root)
	if o == nil {
		return nil, nil, nil, fmt.Errorf("parse %s: %w", what, errNotObject("body", root))
	}
	var (
		wrapIdx  = -1
		wrapVal  *fastjson.Object
		wrapRank = len(wrappers)
		isRecord bool
		i        int
	)
	o.Visit(func(k []byte, v *fastjson.Value) {
		if t.own(d, k) {
			isRecord = true
		}
		if r := slices.Index(wrappers, string(normKey(d.key[:0], k))); r >= 0 && r < wrapRank && v.Type() == fastjson.TypeObject {
			wrapRank, wrapIdx = r, i
			wrapVal = v.GetObject()
		}
		i++
	})
	rec = o
	if wrapIdx >= 0 && !isRecord {
		if sp, err = memberSpanAt(body, sp.start, wrapIdx); err != nil {
			return nil, nil, nil, fmt.Errorf("parse %s: %w", what, err)
		}
		rec, outer = wrapVal, o
	}
	return rec, outer, bytes.Clone(body[sp.start:sp.end]), nil
}

// decodeActionBody decodes a single-action body (the answer to a PUT) into
// a.
func (d *decoder) decodeActionBody(body []byte, a *Action) error {
	// "status" is not a sign of a record: JSend-style envelopes carry
	// {"status": "success", "data": {...}}.
	o, _, raw, err := d.parseRecord(body, d.tables().action, actionWrappers)
	if err != nil {
		return err
	}
	decodeAction(d, o, raw, a)
	d.strs.flush()
	return nil
}

// decodeMeetingBody decodes a meeting detail body into m. When the meeting
// was wrapped and has no agenda of its own, an agenda beside it in the
// envelope is used.
func (d *decoder) decodeMeetingBody(body []byte, m *Meeting) error {
	t := d.tables().meeting
	o, outer, raw, err := d.parseRecord(body, t, meetingWrappers)
	if err != nil {
		return err
	}
	f := t.collect(d, o)
	if outer != nil && agendaArray(t, f) == nil {
		of := make([]*fastjson.Value, len(t.slots))
		t.collectInto(d, outer, of)
		lo, hi := t.start[mtgAgenda], t.start[mtgAgenda+1]
		copy(f[lo:hi], of[lo:hi])
	}
	fillMeeting(d, t, f, raw, m)
	d.strs.flush()
	return nil
}

// decodeMinutesBody decodes a minutes body into m. It returns
// errHiddenMinutes, leaving m zero, when their status is not visible.
func (d *decoder) decodeMinutesBody(body []byte, m *Minutes) error {
	o, _, raw, err := d.parseRecord(body, d.tables().minutes, minutesWrappers)
	if err != nil {
		return err
	}
	if err := decodeMinutes(d, o, raw, m); err != nil {
		d.strs.reset()
		*m = Minutes{}
		return err
	}
	d.strs.flush()
	return nil
}
