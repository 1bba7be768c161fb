package apiclient

import (
	"bytes"

	"github.com/valyala/fastjson"
)

// The fields of an action, in the order of actionFields.
const (
	actID = iota
	actTitle
	actStatus
	actAssignee
	actDeadline
	actMeetingID
	actMeetingTitle
	actCommittee
)

// actionFields is the alias table of an action. The assignee's aliases are
// merged in order (a later one only fills what is still empty); for the
// other fields the first usable alias wins.
var actionFields = []field{
	actID:           {name: "id", aliases: []string{"id", "action_id", "row_id"}, marks: true},
	actTitle:        {name: "title", aliases: []string{"title", "description", "text", "summary", "name"}, marks: true},
	actStatus:       {name: "status", aliases: []string{"status"}},
	actAssignee:     {name: "assignee", aliases: []string{"assignee", "assigned_to", "owner", "assignee_email"}},
	actDeadline:     {name: "deadline", aliases: []string{"deadline", "due", "due_date", "due_at"}},
	actMeetingID:    {name: "meeting_id", aliases: []string{"meeting_id", "meeting.id", "meeting", "relationships.meeting.data.id"}},
	actMeetingTitle: {name: "meeting_title", aliases: []string{"meeting_title", "meeting.title"}},
	actCommittee:    {name: "committee", aliases: []string{"committee", "committee_name"}},
}

// actionWrappers are the members a single action may be wrapped in, in
// order of preference.
var actionWrappers = []string{"data", "action"}

// decodeAction fills a from the action record o. Its strings are set when
// d.strs is flushed.
func decodeAction(d *decoder, o *fastjson.Object, raw []byte, a *Action) {
	t := d.tables().action
	f := t.collect(d, o)
	s := &d.strs
	a.Raw = raw
	for _, v := range t.values(f, actID) {
		if s.addScalar(&a.ID, v) {
			break
		}
	}
	for _, v := range t.values(f, actTitle) {
		if s.addBytes(&a.Title, strBytes(v)) {
			break
		}
	}
	for _, v := range t.values(f, actStatus) {
		if decodeStatus(s, &a.Status, v) {
			break
		}
	}
	var filled personFields
	for _, v := range t.values(f, actAssignee) {
		decodePerson(s, &a.Assignee, &filled, v)
	}
	for _, v := range t.values(f, actDeadline) {
		if t, hasTime, ok := parseTime(strBytes(v)); ok {
			a.Deadline, a.DeadlineHasTime = t, hasTime
			break
		}
	}
	for _, v := range t.values(f, actMeetingID) {
		// An object here is the meeting itself; its id has a slot of its
		// own.
		if object(v) == nil && s.addScalar(&a.MeetingID, v) {
			break
		}
	}
	for _, v := range t.values(f, actMeetingTitle) {
		if s.addBytes(&a.MeetingTitle, strBytes(v)) {
			break
		}
	}
	for _, v := range t.values(f, actCommittee) {
		if decodeNamed(s, &a.Committee, v) {
			break
		}
	}
}

// decodeStatus sets *dst from v and reports whether v was a non-empty
// string: a documented status in any letter case becomes its constant (no
// allocation); anything else is kept as sent.
func decodeStatus(s *arena, dst *Status, v *fastjson.Value) bool {
	b := strBytes(v)
	if len(b) == 0 {
		return false
	}
	for _, st := range statuses {
		if len(b) == len(st) && bytes.EqualFold(b, []byte(st)) {
			*dst = st
			return true
		}
	}
	return s.addBytes((*string)(dst), b)
}

// decodeNamed sets *dst from a string, or from the name (else title) of an
// object, and reports whether it found one.
func decodeNamed(s *arena, dst *string, v *fastjson.Value) bool {
	if v == nil {
		return false
	}
	if o := object(v); o != nil {
		return s.addBytes(dst, strBytes(member(o, "name"))) || s.addBytes(dst, strBytes(member(o, "title")))
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
		var email, name, id, slackID *fastjson.Value
		var buf [64]byte
		o.Visit(func(k []byte, v *fastjson.Value) {
			switch string(normKey(buf[:0], k)) {
			case "email":
				set(&email, v)
			case "name":
				set(&name, v)
			case "id":
				set(&id, v)
			case "slackid":
				set(&slackID, v)
			}
		})
		add(personEmail, &p.Email, strBytes(email))
		add(personName, &p.Name, strBytes(name))
		if *filled&personID == 0 && s.addScalar(&p.ID, id) {
			*filled |= personID
		}
		add(personSlackID, &p.SlackID, strBytes(slackID))
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
