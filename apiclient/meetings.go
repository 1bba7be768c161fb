package apiclient

import "github.com/valyala/fastjson"

// The fields of a meeting, in the order of meetingFields.
const (
	mtgID = iota
	mtgReference
	mtgTitle
	mtgCommittee
	mtgDate
	mtgLocation
	mtgAgenda
	mtgStatus
	mtgVisibility
	mtgConfidential
	mtgPublic
)

// meetingFields is the alias table of a meeting; the first usable alias of
// each field wins.
var meetingFields = []field{
	mtgID:        {name: "id", aliases: []string{"id", "meeting_id", "row_id"}, marks: true},
	mtgReference: {name: "reference", aliases: []string{"reference", "code", "number"}},
	mtgTitle:     {name: "title", aliases: []string{"title", "name"}, marks: true},
	mtgCommittee: {name: "committee", aliases: []string{"committee", "committee_name"}},
	mtgDate:      {name: "date", aliases: []string{"date", "start", "starts_at", "scheduled_at", "held_at"}},
	mtgLocation:  {name: "location", aliases: []string{"location"}},
	mtgAgenda:    {name: "agenda", aliases: []string{"agenda", "agenda_items", "items"}},
	// The marks of what may be published (package publication): the
	// records API defines none for meetings, so these are the names
	// records services use; RECORDS_FIELD_MAP names any other.
	mtgStatus:       {name: "status", aliases: []string{"status", "state", "meeting_status"}},
	mtgVisibility:   {name: "visibility", aliases: []string{"visibility", "access", "access_level", "privacy"}},
	mtgConfidential: {name: "confidential", aliases: []string{"confidential", "is_confidential"}},
	mtgPublic:       {name: "public", aliases: []string{"public", "is_public"}},
}

// meetingWrappers are the members a single meeting may be wrapped in.
var meetingWrappers = []string{"data", "meeting"}

// The fields of an agenda item, in the order of agendaFields.
const (
	agTitle = iota
	agNumber
	agDescription
)

// agendaFields is the alias table of an agenda item given as an object (a
// bare string is taken as the title).
var agendaFields = []field{
	agTitle:       {name: "title", aliases: []string{"title", "name", "text"}},
	agNumber:      {name: "number", aliases: []string{"number", "position", "order"}},
	agDescription: {name: "description", aliases: []string{"description", "notes"}},
}

// decodeMeeting fills m from the meeting record o.
func decodeMeeting(d *decoder, o *fastjson.Object, raw []byte, m *Meeting) {
	t := d.tables().meeting
	fillMeeting(d, t, t.collect(d, o), raw, m)
}

// fillMeeting fills m from the collected slots f of table t.
func fillMeeting(d *decoder, t *table, f []*fastjson.Value, raw []byte, m *Meeting) {
	s := &d.strs
	m.Raw = raw
	for _, v := range t.values(f, mtgID) {
		if s.addScalar(&m.ID, v) {
			break
		}
	}
	for _, v := range t.values(f, mtgReference) {
		if s.addScalar(&m.Reference, v) {
			break
		}
	}
	for _, v := range t.values(f, mtgTitle) {
		if s.addBytes(&m.Title, strBytes(v)) {
			break
		}
	}
	for _, v := range t.values(f, mtgCommittee) {
		if decodeNamed(s, &m.Committee, v) {
			break
		}
	}
	for _, v := range t.values(f, mtgDate) {
		if t, hasTime, ok := parseTime(strBytes(v)); ok {
			m.Date, m.DateHasTime = t, hasTime
			break
		}
	}
	for _, v := range t.values(f, mtgLocation) {
		if decodeNamed(s, &m.Location, v) {
			break
		}
	}
	if v := agendaArray(t, f); v != nil {
		m.Agenda = decodeAgenda(d, v.GetArray())
	}
	for _, v := range t.values(f, mtgStatus) {
		if decodeNamed(s, &m.Status, v) {
			break
		}
	}
	for _, v := range t.values(f, mtgVisibility) {
		if decodeNamed(s, &m.Visibility, v) {
			break
		}
	}
	for _, v := range t.values(f, mtgConfidential) {
		if set, yes := yesNo(v); set {
			m.Confidential = yes
			break
		}
	}
	for _, v := range t.values(f, mtgPublic) {
		if set, yes := yesNo(v); set {
			m.NotPublic = !yes
			break
		}
	}
}

// yesNo reads a yes/no mark: a JSON boolean, 1 or 0, or the words "true",
// "false", "yes", "no" (any case). set is false for anything else.
func yesNo(v *fastjson.Value) (set, yes bool) {
	if v == nil {
		return false, false
	}
	switch v.Type() {
	case fastjson.TypeTrue:
		return true, true
	case fastjson.TypeFalse:
		return true, false
	case fastjson.TypeNumber:
		n := v.GetFloat64()
		return n == 0 || n == 1, n == 1
	case fastjson.TypeString:
		b := v.GetStringBytes()
		switch {
		case equalFoldASCII(b, "true"), equalFoldASCII(b, "yes"), string(b) == "1":
			return true, true
		case equalFoldASCII(b, "false"), equalFoldASCII(b, "no"), string(b) == "0":
			return true, false
		}
	}
	return false, false
}

func equalFoldASCII(b []byte, s string) bool {
	if len(b) != len(s) {
		return false
	}
	for i := range b {
		c := b[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != s[i] {
			return false
		}
	}
	return true
}

// agendaArray returns the first array among the agenda aliases, or nil.
func agendaArray(t *table, f []*fastjson.Value) *fastjson.Value {
	for _, v := range t.values(f, mtgAgenda) {
		if v != nil && v.Type() == fastjson.TypeArray {
			return v
		}
	}
	return nil
}

// decodeAgenda decodes agenda items: objects, or bare strings taken as
// titles. Other values are skipped.
func decodeAgenda(d *decoder, items []*fastjson.Value) []AgendaItem {
	if len(items) == 0 {
		return nil
	}
	s := &d.strs
	t := d.tables().agenda
	f := make([]*fastjson.Value, len(t.slots))
	out := make([]AgendaItem, 0, len(items))
	for _, v := range items {
		switch v.Type() {
		case fastjson.TypeString:
			out = append(out, AgendaItem{})
			s.addBytes(&out[len(out)-1].Title, strBytes(v))
		case fastjson.TypeObject:
			o := v.GetObject()
			clear(f)
			t.collectInto(d, o, f)
			out = append(out, AgendaItem{})
			it := &out[len(out)-1] // out never grows past its capacity
			for _, v := range t.values(f, agTitle) {
				if s.addBytes(&it.Title, strBytes(v)) {
					break
				}
			}
			for _, v := range t.values(f, agNumber) {
				if s.addScalar(&it.Number, v) {
					break
				}
			}
			for _, v := range t.values(f, agDescription) {
				if s.addBytes(&it.Description, strBytes(v)) {
					break
				}
			}
		}
	}
	return out
}
