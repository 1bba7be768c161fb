package store

import (
	"strings"
	"unicode/utf8"

	"github.com/recordsbot/recordsbot/audit"
)

// storable is s as both engines keep text: valid UTF-8 and no NUL, each
// invalid byte and each NUL replaced by U+FFFD. PostgreSQL refuses either
// in a text column (error 22021, "invalid byte sequence for encoding
// UTF8"), and what is written comes from what people type: a refusal of
// an action id typed with a NUL must be recorded, not lost to the error.
// SQLite would keep the bytes; replacing them on both keeps one trail.
func storable(s string) string {
	if strings.IndexByte(s, 0) < 0 && utf8.ValidString(s) {
		return s
	}
	return strings.ReplaceAll(strings.ToValidUTF8(s, "\uFFFD"), "\x00", "\uFFFD")
}

// storableAudit is e with every text field storable, before it is sealed:
// the hash is of what is kept.
func storableAudit(e audit.Entry) audit.Entry {
	for _, f := range []*string{&e.Actor, &e.ActorRecords, &e.Target, &e.From, &e.To, &e.RequestID} {
		*f = storable(*f)
	}
	e.Outcome = audit.Outcome(storable(string(e.Outcome)))
	return e
}
