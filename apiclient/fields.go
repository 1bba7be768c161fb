package apiclient

import (
	"fmt"
	"slices"
	"strings"

	"github.com/valyala/fastjson"
)

// A field is one value the client reads from a record, such as an action's
// deadline. The alias tables (actionFields, meetingFields, agendaFields,
// minutesFields) are the single source of the names the client accepts: they
// drive decoding, the recognition of a record inside an envelope, the
// report of unmapped members ([Client.Inspect]), the validation of
// RECORDS_FIELD_MAP ([ParseFieldMap]) and, through a test, the list in the
// docs/records-client.md.
type field struct {
	// name is the field's key in a FieldMap, after the record's name:
	// "deadline" in "action.deadline".
	name string
	// aliases are the member names the field is read from, in priority
	// order, each in one canonical spelling (snake_case; every casing of it
	// is accepted). A dotted alias is a path into nested objects.
	aliases []string
	// marks says that a member named by one of the aliases shows a
	// single-record body to be the record itself rather than an envelope
	// around it.
	marks bool
}

// slot is one alias of a compiled table.
type slot struct {
	alias  string   // as written in the table or the field map
	path   []string // normalised; path[0] is the member name
	mapped bool     // from the FieldMap
}

// table is a record's fields compiled for lookup. Each alias gets a slot;
// the slots of a field are consecutive, in priority order, field-map paths
// first.
type table struct {
	record string // "action", "meeting", "agenda", "minutes"
	fields []field
	start  []int // start[i] is the first slot of fields[i]; len(fields)+1 entries
	slots  []slot
	byKey  map[string][]int // normalised member name → slots reading it
	marks  map[string]bool  // normalised member names that mark a record
}

// lookup returns the slots reading the member name k, normalised.
func (t *table) lookup(d *decoder, k []byte) []int {
	return t.byKey[string(normKey(d.key[:0], k))]
}

// shapeEntry remembers the slots of the member at one position of the last
// record decoded.
type shapeEntry struct {
	key   string
	slots []int
}

// maxShape bounds how many member positions a decoder remembers.
const maxShape = 64

// compileTable builds the table of record from fields, putting the
// field-map paths (keyed by field name) before the built-in aliases.
func compileTable(record string, fields []field, mapped map[string]string, wrappers []string) *table {
	t := &table{record: record, fields: fields, byKey: map[string][]int{}, marks: map[string]bool{}}
	add := func(fi int, alias string, isMapped bool) {
		path := strings.Split(alias, ".")
		for i := range path {
			path[i] = normString(path[i])
		}
		t.byKey[path[0]] = append(t.byKey[path[0]], len(t.slots))
		t.slots = append(t.slots, slot{alias: alias, path: path, mapped: isMapped})
		if fields[fi].marks && len(path) == 1 && !slices.Contains(wrappers, path[0]) {
			t.marks[path[0]] = true
		}
	}
	for fi, f := range fields {
		t.start = append(t.start, len(t.slots))
		if p, ok := mapped[f.name]; ok {
			add(fi, p, true)
		}
		for _, a := range f.aliases {
			add(fi, a, false)
		}
	}
	t.start = append(t.start, len(t.slots))
	return t
}

// collect reads the members of the record o (and of its JSON:API
// "attributes") into one value per slot, reusing d's scratch.
func (t *table) collect(d *decoder, o *fastjson.Object) []*fastjson.Value {
	n := len(t.slots)
	if cap(d.slots) < n {
		d.slots = make([]*fastjson.Value, n)
	}
	f := d.slots[:n]
	clear(f)
	t.collectInto(d, o, f)
	return f
}

// collectInto is collect into f, which holds nil for every slot.
//
// The records of a list nearly always have the same members in the same
// order, so the decoder remembers the slots of each member position of the
// last record and only looks a name up when it differs: a lookup (normalise
// and hash) per member was a fifth of decoding time.
func (t *table) collectInto(d *decoder, o *fastjson.Object, f []*fastjson.Value) {
	if d.shapeOf != t {
		d.shape, d.shapeOf = d.shape[:0], t
	}
	pos := 0
	visitRecord(o, func(k []byte, v *fastjson.Value) {
		var slots []int
		switch {
		case pos < len(d.shape) && d.shape[pos].key == string(k):
			slots = d.shape[pos].slots
		case pos < len(d.shape):
			slots = t.lookup(d, k)
			d.shape[pos] = shapeEntry{string(k), slots}
		default:
			slots = t.lookup(d, k)
			if pos < maxShape {
				d.shape = append(d.shape, shapeEntry{string(k), slots})
			}
		}
		pos++
		for _, i := range slots {
			if p := t.slots[i].path; len(p) == 1 {
				set(&f[i], v)
			} else {
				set(&f[i], memberPath(v, p[1:]))
			}
		}
	})
}

// values returns the values of field fi from collected slots, in priority
// order (nil where absent).
func (t *table) values(f []*fastjson.Value, fi int) []*fastjson.Value {
	return f[t.start[fi]:t.start[fi+1]]
}

// own reports whether the member name k marks a record of this table.
func (t *table) own(d *decoder, k []byte) bool {
	return t.marks[string(normKey(d.key[:0], k))]
}

// visitRecord calls f for each member of o and then for each member of its
// "attributes" object, if any: JSON:API puts every field but the id there.
func visitRecord(o *fastjson.Object, f func(k []byte, v *fastjson.Value)) {
	var attrs *fastjson.Object
	o.Visit(func(k []byte, v *fastjson.Value) {
		if attrs == nil && string(k) == "attributes" {
			attrs = object(v)
		}
		f(k, v)
	})
	if attrs != nil {
		attrs.Visit(f)
	}
}

// schema is the set of alias tables a Client decodes with.
type schema struct {
	action, meeting, agenda, minutes *table
}

// defaultSchema holds the built-in aliases only.
var defaultSchema = newSchema(nil)

// newSchema compiles the tables with m applied; m must have been checked by
// ParseFieldMap or FieldMap.validate.
func newSchema(m FieldMap) *schema {
	byRecord := map[string]map[string]string{}
	for k, p := range m {
		rec, name, _ := strings.Cut(k, ".")
		if byRecord[rec] == nil {
			byRecord[rec] = map[string]string{}
		}
		byRecord[rec][name] = p
	}
	return &schema{
		action:  compileTable("action", actionFields, byRecord["action"], actionWrappers),
		meeting: compileTable("meeting", meetingFields, byRecord["meeting"], meetingWrappers),
		agenda:  compileTable("agenda", agendaFields, byRecord["agenda"], nil),
		minutes: compileTable("minutes", minutesFields, byRecord["minutes"], minutesWrappers),
	}
}

// fieldTables lists every record's fields under the record's name, in the
// order docs/records-client.md documents them.
func fieldTables() []struct {
	record string
	fields []field
} {
	return []struct {
		record string
		fields []field
	}{
		{"action", actionFields},
		{"meeting", meetingFields},
		{"agenda", agendaFields},
		{"minutes", minutesFields},
	}
}

// KnownFields returns the keys a [FieldMap] may use, such as
// "action.title" and "meeting.date", in a stable order.
func KnownFields() []string {
	var out []string
	for _, ft := range fieldTables() {
		for _, f := range ft.fields {
			out = append(out, ft.record+"."+f.name)
		}
	}
	return out
}

// FieldMap names, for fields the client knows, the member a records service
// uses for them: key "action.deadline" (see [KnownFields]), value a member
// name or a dotted path into nested objects ("responsible.email"). Names
// match in every casing, like the built-in aliases, and a mapped name is
// tried before them. Build one with [ParseFieldMap].
type FieldMap map[string]string

// ParseFieldMap parses the RECORDS_FIELD_MAP syntax: comma-separated
// field=path pairs, such as
//
//	action.title=subject,action.deadline=target_date,action.assignee=responsible.email
//
// Field keys are matched ignoring case, "_" and "-" in the field's name
// (action.meetingId is action.meeting_id). An empty s gives an empty map. It returns an error naming the
// first unknown field, malformed pair, empty path segment or repeated
// field.
func ParseFieldMap(s string) (FieldMap, error) {
	known := map[string]string{}
	for _, k := range KnownFields() {
		rec, name, _ := strings.Cut(k, ".")
		known[rec+"."+normString(name)] = k
	}
	m := FieldMap{}
	for pair := range strings.SplitSeq(s, ",") {
		pair = strings.TrimSpace(pair)
		if pair == "" {
			continue
		}
		k, p, ok := strings.Cut(pair, "=")
		k, p = strings.TrimSpace(k), strings.TrimSpace(p)
		if !ok || k == "" || p == "" {
			return nil, fmt.Errorf("%q is not field=name", pair)
		}
		rec, name, _ := strings.Cut(k, ".")
		canon, ok := known[strings.ToLower(rec)+"."+normString(name)]
		if !ok {
			return nil, fmt.Errorf("unknown field %q (known: %s)", k, strings.Join(KnownFields(), ", "))
		}
		for seg := range strings.SplitSeq(p, ".") {
			if strings.TrimSpace(seg) == "" || normString(seg) == "" {
				return nil, fmt.Errorf("%s=%s: empty name in the path", k, p)
			}
		}
		if _, dup := m[canon]; dup {
			return nil, fmt.Errorf("%s is mapped twice", canon)
		}
		m[canon] = p
	}
	return m, nil
}

// String returns m in the syntax [ParseFieldMap] reads, keys sorted.
func (m FieldMap) String() string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	var b strings.Builder
	for i, k := range keys {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(k + "=" + m[k])
	}
	return b.String()
}
