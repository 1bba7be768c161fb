package apiclient

import (
	"fmt"

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
	// schema holds the alias tables in force; nil means the built-in ones
	// (a decoder made with new, as in tests).
	schema *schema
	// slots is scratch for one record's field values, sized by the table.
	slots []*fastjson.Value
	// key is scratch for normalising member names.
	key [64]byte
	// shape remembers the member names of the last record decoded with
	// table shapeOf, and their slots (see table.collectInto).
	shape   []shapeEntry
	shapeOf *table
	// lastEnvelope is where the last list decoded had its records.
	lastEnvelope string
	// noRaw leaves the Raw of list records nil: a list the bot keeps for
	// a while would otherwise hold a copy of every page it came in.
	noRaw bool
	// whole makes parseList parse every list whole, as it did before
	// parseListLean; tests compare the two.
	whole bool
	// skel is scratch for a list's envelope without its records (see
	// parseListLean).
	skel []byte
}

// release drops every reference into decoded results, so a pooled decoder
// does not keep them alive.
func (d *decoder) release() {
	d.strs.reset()
	d.spans = d.spans[:0]
	clear(d.slots)
	d.lastEnvelope = ""
	d.noRaw = false
	d.skel = d.skel[:0]
}

// tables returns the alias tables the decoder uses.
func (d *decoder) tables() *schema {
	if d.schema == nil {
		return defaultSchema
	}
	return d.schema
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
		return append(dst, v.GetStringBytes()...)
	case fastjson.TypeNumber:
		// MarshalTo writes a number's literal exactly as the server did.
		return v.MarshalTo(dst)
	}
	return dst
}

// strBytes returns the contents of v when it is a JSON string, or nil
// (fastjson's Get* accessors answer nil for a nil value or another type).
func strBytes(v *fastjson.Value) []byte {
	return v.GetStringBytes()
}

// object returns v as an object, or nil.
func object(v *fastjson.Value) *fastjson.Object {
	return v.GetObject()
}

// set stores v in *slot unless an earlier member already did or v is null:
// the first occurrence of a duplicated key wins, like fastjson's Get.
func set(slot **fastjson.Value, v *fastjson.Value) {
	if *slot == nil && v != nil && v.Type() != fastjson.TypeNull {
		*slot = v
	}
}

// errNotObject reports a record that is not a JSON object.
func errNotObject(what string, v *fastjson.Value) error {
	return fmt.Errorf("%s is a JSON %s, not an object", what, v.Type())
}

// normKey appends the normalised form of a member name to dst: ASCII
// letters lower-cased, "_" and "-" dropped. Servers spell one name
// due_date, dueDate, due-date or DueDate; normalising once lets every alias
// table hold a single spelling per name.
func normKey(dst, k []byte) []byte {
	for _, c := range k {
		switch {
		case c == '_' || c == '-':
		case c >= 'A' && c <= 'Z':
			dst = append(dst, c+('a'-'A'))
		default:
			dst = append(dst, c)
		}
	}
	return dst
}

// normString is normKey for a string.
func normString(s string) string { return string(normKey(nil, []byte(s))) }

// member returns the first non-null member of o whose normalised name is
// norm (already normalised), or nil. It serves the small fixed sub-objects
// (an assignee's email, a committee's name) where a table would be
// overkill.
func member(o *fastjson.Object, norm string) *fastjson.Value {
	if o == nil {
		return nil
	}
	// Most services spell the name as normalised ("id", "email"): a plain
	// Get finds it without normalising every member.
	if v := o.Get(norm); v != nil && v.Type() != fastjson.TypeNull {
		return v
	}
	var (
		found *fastjson.Value
		buf   [64]byte
	)
	o.Visit(func(k []byte, v *fastjson.Value) {
		if found == nil && v.Type() != fastjson.TypeNull && string(normKey(buf[:0], k)) == norm {
			found = v
		}
	})
	return found
}

// memberPath follows path (normalised names) from v through nested
// objects; nil when a step is missing.
func memberPath(v *fastjson.Value, path []string) *fastjson.Value {
	for _, name := range path {
		v = member(object(v), name)
		if v == nil {
			return nil
		}
	}
	return v
}
