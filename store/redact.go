package store

import (
	"regexp"
)

// Redact returns s with every database password in it hidden, whatever
// form the DSN takes, so that a DATABASE_URL (or an error or log line that
// quotes one) can be shown. It hides:
//
//   - the password of a URL's user part: postgres://bot:secret@db/x
//     becomes postgres://bot:xxxxx@db/x, and the same without the scheme
//     (//bot:secret@db/x) or without its slashes (bot:secret@db/x), which
//     are mistakes, but echoed in the error that says so;
//   - a password given as a key=value pair, libpq's keyword form or a URL
//     query parameter: host=db password=secret, password='a b\'c',
//     ?password=secret&sslmode=require, sslpassword=… and PGPASSWORD=…
//     (https://www.postgresql.org/docs/current/libpq-connect.html#LIBPQ-CONNSTRING).
//
// The rest of s is left as it is, so the message still says which
// database. Use it wherever a DATABASE_URL may be echoed.
func Redact(s string) string {
	s = urlPassword.ReplaceAllString(s, "${1}:xxxxx@")
	s = barePassword.ReplaceAllString(s, "${1}${2}:xxxxx@")
	return keyPassword.ReplaceAllString(s, "${1}=xxxxx")
}

var (
	// urlPassword is [scheme:]//user:password@: everything from the colon
	// after the user to the last @ of the same word, so a password with
	// an @ of its own (which a URL should escape, and often does not) is
	// hidden whole.
	urlPassword = regexp.MustCompile(`(?i)((?:[a-z][a-z0-9+.-]*:)?//[^\s:/@?#]*):\S*@`)
	// barePassword is user:password@ at the start of a word with no
	// scheme before it; a password holding a '/' is taken for a path.
	barePassword = regexp.MustCompile(`(^|\s)([^\s:/@?#=']+):[^\s/@]+@`)
	// keyPassword is a key ending in "password" (password, sslpassword,
	// PGPASSWORD) = a value, single-quoted with backslash escapes as libpq
	// allows, or bare up to white space or the next query parameter.
	keyPassword = regexp.MustCompile(`(?i)(\w*password)\s*=\s*(?:'(?:[^'\\]|\\.)*'?|[^\s&#]*)`)
)
