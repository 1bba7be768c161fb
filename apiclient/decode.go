package apiclient

import (
	"bytes"
	"errors"
	"fmt"
	"net/url"
	"slices"
	"time"

	"github.com/valyala/fastjson"
)

// decoder is the reusable state for decoding one response body: a fastjson
// parser, a string arena and scratch space. A Client pools decoders, so in
// the steady state decoding a page allocates little more than what it
// returns: the records slice, one copy of the records' bytes for Raw and one
// string holding every text field of the page.
type decoder struct {
	p     fastjson.Parser
	strs  arena
	spans []span
}

// release drops every reference into decoded results, so a pooled decoder
// does not keep them alive.
func (d *decoder) release() {
	d.strs.reset()
	d.spans = d.spans[:0]
}

// arena collects the text fields of a batch of records into one buffer and
// turns them into strings with a single allocation on flush. Strings of one
// page therefore share a backing array, as Raw does.
type arena struct {
	buf     []byte
	pending []pendingString
}

type pendingString struct {
	dst        *string
	start, end int
}

// addBytes schedules *dst = string(b); it reports whether b is non-empty.
func (a *arena) addBytes(dst *string, b []byte) bool {
	if len(b) == 0 {
		return false
	}
	start := len(a.buf)
	a.buf = append(a.buf, b...)
	a.pending = append(a.pending, pendingString{dst, start, len(a.buf)})
	return true
}

// addScalar schedules *dst to be the text of v, a string or a number (kept
// as written: 42 stays "42"); it reports whether that text is non-empty.
func (a *arena) addScalar(dst *string, v *fastjson.Value) bool {
	start := len(a.buf)
	a.buf = appendScalar(a.buf, v)
	if len(a.buf) == start {
		return false
	}
	a.pending = append(a.pending, pendingString{dst, start, len(a.buf)})
	return true
}

// flush sets every scheduled string.
func (a *arena) flush() {
	if len(a.pending) > 0 {
		s := string(a.buf)
		for _, p := range a.pending {
			*p.dst = s[p.start:p.end]
		}
	}
	a.reset()
}

func (a *arena) reset() {
	clear(a.pending) // the pointers point into results
	a.pending = a.pending[:0]
	a.buf = a.buf[:0]
}

// appendScalar appends the text of a JSON string or number to dst; other
// types append nothing.
func appendScalar(dst []byte, v *fastjson.Value) []byte {
	if v == nil {
		return dst
	}
	switch v.Type() {
	case fastjson.TypeString:
		b, _ := v.StringBytes()
		return append(dst, b...)
	case fastjson.TypeNumber:
		// MarshalTo writes a number's literal exactly as the server did.
		return v.MarshalTo(dst)
	}
	return dst
}

// strBytes returns the contents of v when it is a JSON string.
func strBytes(v *fastjson.Value) []byte {
	if v == nil || v.Type() != fastjson.TypeString {
		return nil
	}
	b, _ := v.StringBytes()
	return b
}

// object returns v as an object, or nil.
func object(v *fastjson.Value) *fastjson.Object {
	if v == nil || v.Type() != fastjson.TypeObject {
		return nil
	}
	o, _ := v.Object()
	return o
}

// set stores v in *slot unless an earlier member already did or v is null:
// the first occurrence of a duplicated key wins, like fastjson's Get.
func set(slot **fastjson.Value, v *fastjson.Value) {
	if *slot == nil && v.Type() != fastjson.TypeNull {
		*slot = v
	}
}

// errNotObject reports a record that is not a JSON object.
func errNotObject(what string, v *fastjson.Value) error {
	return fmt.Errorf("%s is a JSON %s, not an object", what, v.Type())
}

// ---- Envelopes ----

// listPage is a parsed list body.
type listPage struct {
	items []*fastjson.Value
	// raw holds a copy of the bytes from the first record to the last;
	// spans are relative to it.
	raw   []byte
	spans []span
	page  pageFields
}

// parseList parses a list body: a bare array, or an object with the array
// under data, items, results or the resource name (in that order of
// preference).
func (d *decoder) parseList(body []byte, resource string) (listPage, error) {
	var lp listPage
	root, err := d.p.ParseBytes(body)
	if err != nil {
		return lp, fmt.Errorf("parse %s list: %w", resource, err)
	}
	arrStart := 0
	switch root.Type() {
	case fastjson.TypeArray:
		lp.items, _ = root.Array()
		arrStart = rootSpan(body).start
	case fastjson.TypeObject:
		o, _ := root.Object()
		idx, v := listMember(o, resource)
		if idx < 0 {
			return lp, fmt.Errorf("parse %s list: no array under data, items, results or %s", resource, resource)
		}
		lp.page.from(o)
		if v.Type() == fastjson.TypeNull {
			return lp, nil
		}
		lp.items, _ = v.Array()
		sp, err := memberSpan(body, idx)
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
	// One copy of the records' bytes backs every Raw of the page: cheaper
	// than a copy per record, at the price of a retained Raw keeping its
	// whole page alive.
	first, last := d.spans[0].start, d.spans[len(d.spans)-1].end
	lp.raw = bytes.Clone(body[first:last])
	for i := range d.spans {
		d.spans[i].start -= first
		d.spans[i].end -= first
	}
	lp.spans = d.spans
	return lp, nil
}

// listMember finds the member of o holding the list. It returns idx -1 when
// there is none; v may be null (an empty list).
func listMember(o *fastjson.Object, resource string) (idx int, v *fastjson.Value) {
	var (
		cand [4]*fastjson.Value
		at   [4]int
		i    int
	)
	o.Visit(func(k []byte, v *fastjson.Value) {
		j := -1
		switch string(k) {
		case "data":
			j = 0
		case "items":
			j = 1
		case "results":
			j = 2
		default:
			if string(k) == resource {
				j = 3
			}
		}
		if j >= 0 && cand[j] == nil {
			cand[j], at[j] = v, i
		}
		i++
	})
	for j, v := range cand {
		if v != nil && v.Type() == fastjson.TypeArray {
			return at[j], v
		}
	}
	for j, v := range cand {
		if v != nil && v.Type() == fastjson.TypeNull {
			return at[j], v
		}
	}
	return -1, nil
}

// recordFunc fills out from the record object o, whose bytes are raw.
type recordFunc[T any] func(d *decoder, o *fastjson.Object, raw []byte, out *T)

// decodeList parses a list body and appends at most limit records to dst
// (limit < 0: all). It also returns how many records the page held.
func decodeList[T any](d *decoder, body []byte, resource string, dst []T, limit int, rec recordFunc[T]) ([]T, int, pageFields, error) {
	lp, err := d.parseList(body, resource)
	if err != nil {
		return dst, 0, lp.page, err
	}
	n := len(lp.items)
	if limit >= 0 && n > limit {
		n = limit
	}
	// Growing first keeps &dst[i] stable until the arena is flushed.
	base := len(dst)
	dst = slices.Grow(dst, n)[:base+n]
	for i, v := range lp.items[:n] {
		o := object(v)
		if o == nil {
			d.strs.reset()
			clear(dst[base:])
			return dst[:base], 0, lp.page, fmt.Errorf("parse %s list: record %d: %w", resource, i, errNotObject("record", v))
		}
		s := lp.spans[i]
		rec(d, o, lp.raw[s.start:s.end:s.end], &dst[base+i])
	}
	d.strs.flush()
	return dst, len(lp.items), lp.page, nil
}

// parseRecord parses a single-record body. The record is the body itself,
// or the object under one of wrappers when the body has no field of its own
// for which own reports true (so a record that merely has a "data" field is
// not mistaken for an envelope). It returns the record, the envelope it was
// unwrapped from (nil if none) and a copy of the record's bytes.
func (d *decoder) parseRecord(body []byte, what string, wrappers []string, own func(key string) bool) (rec, outer *fastjson.Object, raw []byte, err error) {
	root, err := d.p.ParseBytes(body)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("parse %s: %w", what, err)
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
		key := string(k)
		if own(key) {
			isRecord = true
		}
		if r := slices.Index(wrappers, key); r >= 0 && r < wrapRank && v.Type() == fastjson.TypeObject {
			wrapRank, wrapIdx = r, i
			wrapVal, _ = v.Object()
		}
		i++
	})
	sp := rootSpan(body)
	rec = o
	if wrapIdx >= 0 && !isRecord {
		if sp, err = memberSpan(body, wrapIdx); err != nil {
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
	o, _, raw, err := d.parseRecord(body, "action", []string{"data", "action"}, func(k string) bool {
		switch k {
		case "id", "action_id", "row_id", "title":
			return true
		}
		return false
	})
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
	o, outer, raw, err := d.parseRecord(body, "meeting", []string{"data", "meeting"}, func(k string) bool {
		switch k {
		case "id", "meeting_id", "row_id", "title", "name":
			return true
		}
		return false
	})
	if err != nil {
		return err
	}
	f := meetingSlots(o)
	if outer != nil && f[mtgAgenda] == nil && f[mtgAgendaItems] == nil && f[mtgItems] == nil {
		of := meetingSlots(outer)
		copy(f[mtgAgenda:mtgItems+1], of[mtgAgenda:mtgItems+1])
	}
	fillMeeting(d, f, raw, m)
	d.strs.flush()
	return nil
}

// decodeMinutesBody decodes a minutes body into m. It returns
// errHiddenMinutes, leaving m zero, when their status is not visible.
func (d *decoder) decodeMinutesBody(body []byte, m *Minutes) error {
	// Minutes need not have an id, and "status" may be an envelope's
	// ("success"), so a body or address is what marks the record itself.
	o, _, raw, err := d.parseRecord(body, "minutes", []string{"data", "minutes"}, func(k string) bool {
		switch k {
		case "body", "content", "text", "markdown", "html", "url", "public_url", "html_url":
			return true
		}
		return false
	})
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

// visitRecord calls f for each member of o and then for each member of its
// "attributes" object, if any: JSON:API puts every field but the id there.
func visitRecord(o *fastjson.Object, f func(k []byte, v *fastjson.Value)) {
	var attrs *fastjson.Object
	o.Visit(func(k []byte, v *fastjson.Value) {
		if string(k) == "attributes" && attrs == nil {
			attrs = object(v)
		}
		f(k, v)
	})
	if attrs != nil {
		attrs.Visit(f)
	}
}

// ---- Actions ----

// Slots of the action fields, in priority order within each alias group.
const (
	actID = iota
	actActionID
	actRowID
	actTitle
	actDescription
	actText
	actSummary
	actName
	actStatus
	actAssignee
	actAssignedTo
	actOwner
	actAssigneeEmail
	actDeadline
	actDue
	actDueDate
	actDueAt
	actMeetingID
	actMeeting
	actMeetingTitle
	actCommittee
	actCommitteeName
	actSlots
)

func actionSlot(k []byte) int {
	switch string(k) {
	case "id":
		return actID
	case "action_id":
		return actActionID
	case "row_id":
		return actRowID
	case "title":
		return actTitle
	case "description":
		return actDescription
	case "text":
		return actText
	case "summary":
		return actSummary
	case "name":
		return actName
	case "status":
		return actStatus
	case "assignee":
		return actAssignee
	case "assigned_to":
		return actAssignedTo
	case "owner":
		return actOwner
	case "assignee_email":
		return actAssigneeEmail
	case "deadline":
		return actDeadline
	case "due":
		return actDue
	case "due_date":
		return actDueDate
	case "due_at":
		return actDueAt
	case "meeting_id":
		return actMeetingID
	case "meeting":
		return actMeeting
	case "meeting_title":
		return actMeetingTitle
	case "committee":
		return actCommittee
	case "committee_name":
		return actCommitteeName
	}
	return -1
}

// decodeAction fills a from the action record o. Its strings are set when
// d.strs is flushed.
func decodeAction(d *decoder, o *fastjson.Object, raw []byte, a *Action) {
	var f [actSlots]*fastjson.Value
	visitRecord(o, func(k []byte, v *fastjson.Value) {
		if i := actionSlot(k); i >= 0 {
			set(&f[i], v)
		}
	})
	s := &d.strs
	a.Raw = raw
	for _, v := range f[actID : actRowID+1] {
		if s.addScalar(&a.ID, v) {
			break
		}
	}
	for _, v := range f[actTitle : actName+1] {
		if s.addBytes(&a.Title, strBytes(v)) {
			break
		}
	}
	decodeStatus(s, &a.Status, f[actStatus])
	var filled personFields
	for _, v := range f[actAssignee : actAssigneeEmail+1] {
		decodePerson(s, &a.Assignee, &filled, v)
	}
	for _, v := range f[actDeadline : actDueAt+1] {
		if t, hasTime, ok := parseTime(strBytes(v)); ok {
			a.Deadline, a.DeadlineHasTime = t, hasTime
			break
		}
	}
	haveMeeting := s.addScalar(&a.MeetingID, f[actMeetingID])
	haveTitle := s.addBytes(&a.MeetingTitle, strBytes(f[actMeetingTitle]))
	if m := f[actMeeting]; m != nil {
		if mo := object(m); mo != nil {
			if !haveMeeting {
				s.addScalar(&a.MeetingID, mo.Get("id"))
			}
			if !haveTitle {
				s.addBytes(&a.MeetingTitle, strBytes(mo.Get("title")))
			}
		} else if !haveMeeting {
			s.addScalar(&a.MeetingID, m)
		}
	}
	if !decodeNamed(s, &a.Committee, f[actCommittee]) {
		decodeNamed(s, &a.Committee, f[actCommitteeName])
	}
}

// decodeStatus sets *dst from v: a documented status in any letter case
// becomes its constant (no allocation); anything else is kept as sent.
func decodeStatus(s *arena, dst *Status, v *fastjson.Value) {
	b := strBytes(v)
	if len(b) == 0 {
		return
	}
	for _, st := range Statuses {
		if len(b) == len(st) && bytes.EqualFold(b, []byte(st)) {
			*dst = st
			return
		}
	}
	s.addBytes((*string)(dst), b)
}

// decodeNamed sets *dst from a string, or from the name (else title) of an
// object, and reports whether it found one.
func decodeNamed(s *arena, dst *string, v *fastjson.Value) bool {
	if v == nil {
		return false
	}
	if o := object(v); o != nil {
		return s.addBytes(dst, strBytes(o.Get("name"))) || s.addBytes(dst, strBytes(o.Get("title")))
	}
	return s.addBytes(dst, strBytes(v))
}

// personFields records which Person fields are already scheduled, so that a
// lower-priority alias only fills the gaps.
type personFields uint8

const (
	personEmail personFields = 1 << iota
	personName
	personID
	personSlackID
)

// decodePerson merges the assignee value v (a string or an object) into p.
func decodePerson(s *arena, p *Person, filled *personFields, v *fastjson.Value) {
	if v == nil {
		return
	}
	add := func(bit personFields, dst *string, b []byte) {
		if *filled&bit == 0 && s.addBytes(dst, b) {
			*filled |= bit
		}
	}
	if o := object(v); o != nil {
		add(personEmail, &p.Email, strBytes(o.Get("email")))
		add(personName, &p.Name, strBytes(o.Get("name")))
		if *filled&personID == 0 && s.addScalar(&p.ID, o.Get("id")) {
			*filled |= personID
		}
		add(personSlackID, &p.SlackID, strBytes(o.Get("slack_id")))
		return
	}
	b := strBytes(v)
	switch {
	case len(b) == 0:
	case bytes.IndexByte(b, '@') >= 0 && !bytes.HasPrefix(b, []byte("<@")):
		add(personEmail, &p.Email, b)
	default:
		if id, ok := slackUserID(b); ok {
			add(personSlackID, &p.SlackID, id)
		} else {
			add(personName, &p.Name, b)
		}
	}
}

// slackUserID recognises a Slack user ID ("U024BE7LH", "W0123ABC") or a
// mention of one ("<@U024BE7LH>", "<@U024BE7LH|jane>") and returns the ID.
// An ID is U or W, then four or more capitals or digits with at least one
// digit, which keeps all-capital names such as "UNASSIGNED" out.
func slackUserID(b []byte) ([]byte, bool) {
	if bytes.HasPrefix(b, []byte("<@")) && bytes.HasSuffix(b, []byte(">")) {
		b = b[2 : len(b)-1]
		if i := bytes.IndexByte(b, '|'); i >= 0 {
			b = b[:i]
		}
	}
	if len(b) < 5 || (b[0] != 'U' && b[0] != 'W') {
		return nil, false
	}
	digit := false
	for _, c := range b[1:] {
		switch {
		case c >= '0' && c <= '9':
			digit = true
		case c >= 'A' && c <= 'Z':
		default:
			return nil, false
		}
	}
	return b, digit
}

// ---- Meetings ----

const (
	mtgID = iota
	mtgMeetingID
	mtgRowID
	mtgReference
	mtgCode
	mtgNumber
	mtgTitle
	mtgName
	mtgCommittee
	mtgCommitteeName
	mtgDate
	mtgStart
	mtgStartsAt
	mtgScheduledAt
	mtgHeldAt
	mtgLocation
	mtgAgenda
	mtgAgendaItems
	mtgItems
	mtgSlots
)

func meetingSlot(k []byte) int {
	switch string(k) {
	case "id":
		return mtgID
	case "meeting_id":
		return mtgMeetingID
	case "row_id":
		return mtgRowID
	case "reference":
		return mtgReference
	case "code":
		return mtgCode
	case "number":
		return mtgNumber
	case "title":
		return mtgTitle
	case "name":
		return mtgName
	case "committee":
		return mtgCommittee
	case "committee_name":
		return mtgCommitteeName
	case "date":
		return mtgDate
	case "start":
		return mtgStart
	case "starts_at":
		return mtgStartsAt
	case "scheduled_at":
		return mtgScheduledAt
	case "held_at":
		return mtgHeldAt
	case "location":
		return mtgLocation
	case "agenda":
		return mtgAgenda
	case "agenda_items":
		return mtgAgendaItems
	case "items":
		return mtgItems
	}
	return -1
}

// meetingSlots collects the fields of the meeting record o.
func meetingSlots(o *fastjson.Object) (f [mtgSlots]*fastjson.Value) {
	visitRecord(o, func(k []byte, v *fastjson.Value) {
		if i := meetingSlot(k); i >= 0 {
			set(&f[i], v)
		}
	})
	return f
}

// decodeMeeting fills m from the meeting record o.
func decodeMeeting(d *decoder, o *fastjson.Object, raw []byte, m *Meeting) {
	fillMeeting(d, meetingSlots(o), raw, m)
}

func fillMeeting(d *decoder, f [mtgSlots]*fastjson.Value, raw []byte, m *Meeting) {
	s := &d.strs
	m.Raw = raw
	for _, v := range f[mtgID : mtgRowID+1] {
		if s.addScalar(&m.ID, v) {
			break
		}
	}
	for _, v := range f[mtgReference : mtgNumber+1] {
		if s.addScalar(&m.Reference, v) {
			break
		}
	}
	for _, v := range f[mtgTitle : mtgName+1] {
		if s.addBytes(&m.Title, strBytes(v)) {
			break
		}
	}
	for _, v := range f[mtgCommittee : mtgCommitteeName+1] {
		if decodeNamed(s, &m.Committee, v) {
			break
		}
	}
	for _, v := range f[mtgDate : mtgHeldAt+1] {
		if t, hasTime, ok := parseTime(strBytes(v)); ok {
			m.Date, m.DateHasTime = t, hasTime
			break
		}
	}
	decodeNamed(s, &m.Location, f[mtgLocation])
	for _, v := range f[mtgAgenda : mtgItems+1] {
		if v != nil && v.Type() == fastjson.TypeArray {
			items, _ := v.Array()
			m.Agenda = decodeAgenda(s, items)
			break
		}
	}
}

// decodeAgenda decodes agenda items: objects, or bare strings taken as
// titles. Other values are skipped.
func decodeAgenda(s *arena, items []*fastjson.Value) []AgendaItem {
	if len(items) == 0 {
		return nil
	}
	out := make([]AgendaItem, 0, len(items))
	for _, v := range items {
		switch v.Type() {
		case fastjson.TypeString:
			out = append(out, AgendaItem{})
			s.addBytes(&out[len(out)-1].Title, strBytes(v))
		case fastjson.TypeObject:
			var f [8]*fastjson.Value
			o, _ := v.Object()
			o.Visit(func(k []byte, v *fastjson.Value) {
				i := -1
				switch string(k) {
				case "title":
					i = 0
				case "name":
					i = 1
				case "text":
					i = 2
				case "number":
					i = 3
				case "position":
					i = 4
				case "order":
					i = 5
				case "description":
					i = 6
				case "notes":
					i = 7
				}
				if i >= 0 {
					set(&f[i], v)
				}
			})
			out = append(out, AgendaItem{})
			it := &out[len(out)-1] // out never grows past its capacity
			_ = s.addBytes(&it.Title, strBytes(f[0])) || s.addBytes(&it.Title, strBytes(f[1])) || s.addBytes(&it.Title, strBytes(f[2]))
			_ = s.addScalar(&it.Number, f[3]) || s.addScalar(&it.Number, f[4]) || s.addScalar(&it.Number, f[5])
			_ = s.addBytes(&it.Description, strBytes(f[6])) || s.addBytes(&it.Description, strBytes(f[7]))
		}
	}
	return out
}

// ---- Minutes ----

const (
	minStatus = iota
	minBody
	minContent
	minText
	minMinutes
	minMarkdown
	minHTML
	minFormat
	minURL
	minPublicURL
	minHTMLURL
	minApprovedAt
	minPublishedAt
	minUpdatedAt
	minMeetingID
	minMeeting
	minSlots
)

func minutesSlot(k []byte) int {
	switch string(k) {
	case "status":
		return minStatus
	case "body":
		return minBody
	case "content":
		return minContent
	case "text":
		return minText
	case "minutes":
		return minMinutes
	case "markdown":
		return minMarkdown
	case "html":
		return minHTML
	case "format":
		return minFormat
	case "url":
		return minURL
	case "public_url":
		return minPublicURL
	case "html_url":
		return minHTMLURL
	case "approved_at":
		return minApprovedAt
	case "published_at":
		return minPublishedAt
	case "updated_at":
		return minUpdatedAt
	case "meeting_id":
		return minMeetingID
	case "meeting":
		return minMeeting
	}
	return -1
}

// errHiddenMinutes is the cause of ErrNotFound for minutes the server sent
// although their status is not visible.
var errHiddenMinutes = errors.New("minutes status is not approved or published_draft")

// decodeMinutes fills m from the minutes record o. It returns
// errHiddenMinutes when the status is not visible; m is then left zero.
func decodeMinutes(d *decoder, o *fastjson.Object, raw []byte, m *Minutes) error {
	var f [minSlots]*fastjson.Value
	visitRecord(o, func(k []byte, v *fastjson.Value) {
		if i := minutesSlot(k); i >= 0 {
			set(&f[i], v)
		}
	})
	st := bytes.TrimSpace(strBytes(f[minStatus]))
	switch {
	case bytes.EqualFold(st, []byte(MinutesApproved)):
		m.Status = MinutesApproved
	case bytes.EqualFold(st, []byte(MinutesPublishedDraft)):
		m.Status = MinutesPublishedDraft
	default:
		// Minutes that are not approved or published must never reach a
		// channel, whatever the server sent.
		return errHiddenMinutes
	}
	s := &d.strs
	m.Raw = raw
	m.Format = FormatMarkdown
	for i, v := range f[minBody : minHTML+1] {
		if s.addBytes(&m.Body, strBytes(v)) {
			if minBody+i == minHTML {
				m.Format = FormatHTML
			}
			break
		}
	}
	if fm := bytes.ToLower(bytes.TrimSpace(strBytes(f[minFormat]))); bytes.Equal(fm, []byte("html")) || bytes.Equal(fm, []byte("text/html")) {
		m.Format = FormatHTML
	}
	for _, v := range f[minURL : minHTMLURL+1] {
		if b := strBytes(v); isHTTPURL(b) && s.addBytes(&m.URL, b) {
			break
		}
	}
	for _, v := range f[minApprovedAt : minUpdatedAt+1] {
		if t, _, ok := parseTime(strBytes(v)); ok {
			m.Date = t
			break
		}
	}
	if !s.addScalar(&m.MeetingID, f[minMeetingID]) {
		if mv := f[minMeeting]; mv != nil {
			if mo := object(mv); mo != nil {
				s.addScalar(&m.MeetingID, mo.Get("id"))
			} else {
				s.addScalar(&m.MeetingID, mv)
			}
		}
	}
	return nil
}

// ---- Pagination fields ----

// pageFields are the pagination hints of a list body. Strings are copies:
// they outlive the parser.
type pageFields struct {
	next       string // a URL reference (from next, next_url or links.next)
	cursor     string // next_cursor, or a "next" that is not a URL
	echoCursor string // cursor: maybe the next one, maybe the current one
	nextPage   string // next_page
	page       string // the current page
	totalPages string
	hasMore    int8 // 0 absent, 1 true, -1 false
}

// from reads the pagination fields of the list object o and of its meta,
// pagination and links sub-objects; top-level fields win.
func (pf *pageFields) from(o *fastjson.Object) {
	var subs [3]*fastjson.Object
	pf.visit(o, &subs)
	for _, sub := range subs {
		if sub != nil {
			pf.visit(sub, nil)
		}
	}
}

func (pf *pageFields) visit(o *fastjson.Object, subs *[3]*fastjson.Object) {
	o.Visit(func(k []byte, v *fastjson.Value) {
		switch string(k) {
		case "next", "next_url":
			if pf.next == "" && pf.cursor == "" && pf.nextPage == "" {
				pf.setNext(v)
			}
		case "next_cursor":
			if pf.cursor == "" {
				pf.cursor = string(appendScalar(nil, v))
			}
		case "cursor":
			if pf.echoCursor == "" {
				pf.echoCursor = string(appendScalar(nil, v))
			}
		case "next_page":
			if pf.nextPage == "" {
				if b := strBytes(v); looksLikeURL(b) {
					pf.next = string(b)
				} else {
					pf.nextPage = string(appendScalar(nil, v))
				}
			}
		case "page", "current_page":
			if pf.page == "" {
				pf.page = string(appendScalar(nil, v))
			}
		case "total_pages", "last_page":
			if pf.totalPages == "" {
				pf.totalPages = string(appendScalar(nil, v))
			}
		case "has_more":
			if pf.hasMore == 0 {
				switch v.Type() {
				case fastjson.TypeTrue:
					pf.hasMore = 1
				case fastjson.TypeFalse:
					pf.hasMore = -1
				}
			}
		case "meta", "pagination", "links":
			if subs == nil {
				break
			}
			i := 0
			switch string(k) {
			case "pagination":
				i = 1
			case "links":
				i = 2
			}
			if subs[i] == nil {
				subs[i] = object(v)
			}
		}
	})
}

// setNext reads a "next" value: a URL reference, a cursor, a page number,
// or an object with an href (HAL, JSON:API link objects).
func (pf *pageFields) setNext(v *fastjson.Value) {
	switch v.Type() {
	case fastjson.TypeString:
		b := strBytes(v)
		if looksLikeURL(b) {
			pf.next = string(b)
		} else {
			pf.cursor = string(b)
		}
	case fastjson.TypeNumber:
		pf.nextPage = string(appendScalar(nil, v))
	case fastjson.TypeObject:
		o, _ := v.Object()
		if b := strBytes(o.Get("href")); len(b) > 0 {
			pf.next = string(b)
		}
	}
}

// looksLikeURL tells a URL reference from an opaque cursor: only absolute
// http(s) URLs and references starting with "/" or "?" count as URLs.
func looksLikeURL(b []byte) bool {
	if len(b) == 0 {
		return false
	}
	if b[0] == '/' || b[0] == '?' {
		return true
	}
	return hasPrefixFold(b, "http://") || hasPrefixFold(b, "https://")
}

func hasPrefixFold(b []byte, prefix string) bool {
	return len(b) >= len(prefix) && bytes.EqualFold(b[:len(prefix)], []byte(prefix))
}

// isHTTPURL reports whether b is an absolute http or https URL with a host.
func isHTTPURL(b []byte) bool {
	if !hasPrefixFold(b, "http://") && !hasPrefixFold(b, "https://") {
		return false
	}
	u, err := url.Parse(string(b))
	return err == nil && u.Host != ""
}

// ---- Times ----

// parseTime parses an RFC 3339 timestamp (also with a space for the T, or
// without a zone, read as UTC) or a YYYY-MM-DD date (midnight UTC, hasTime
// false). ok is false for anything else, including an empty b.
func parseTime(b []byte) (t time.Time, hasTime, ok bool) {
	if len(b) == len("2006-01-02") {
		t, ok = parseDate(b)
		return t, false, ok
	}
	if len(b) < len("2006-01-02T15:04") || len(b) > 64 {
		return time.Time{}, false, false
	}
	layouts := [...]string{
		time.RFC3339Nano, // also accepts no fractional seconds
		"2006-01-02 15:04:05.999999999Z07:00",
		"2006-01-02T15:04:05.999999999",
		"2006-01-02 15:04:05.999999999",
		"2006-01-02T15:04",
		"2006-01-02 15:04",
	}
	s := string(b)
	for _, layout := range layouts {
		if t, err := time.Parse(layout, s); err == nil {
			return t, true, true
		}
	}
	return time.Time{}, false, false
}

// parseDate parses YYYY-MM-DD without the cost of time.Parse: deadlines are
// usually dates and every record of a page has one.
func parseDate(b []byte) (time.Time, bool) {
	if len(b) != 10 || b[4] != '-' || b[7] != '-' {
		return time.Time{}, false
	}
	num := func(b []byte) (int, bool) {
		n := 0
		for _, c := range b {
			if c < '0' || c > '9' {
				return 0, false
			}
			n = n*10 + int(c-'0')
		}
		return n, true
	}
	y, ok1 := num(b[:4])
	mo, ok2 := num(b[5:7])
	d, ok3 := num(b[8:])
	if !ok1 || !ok2 || !ok3 || mo < 1 || mo > 12 || d < 1 {
		return time.Time{}, false
	}
	t := time.Date(y, time.Month(mo), d, 0, 0, 0, 0, time.UTC)
	if t.Day() != d { // 2026-02-30 normalises into March
		return time.Time{}, false
	}
	return t, true
}
