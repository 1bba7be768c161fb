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
