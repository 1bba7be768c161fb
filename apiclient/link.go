package apiclient

import "strings"

// link is one link of an RFC 8288 Link header field.
type link struct {
	URI string
	// Rel is the value of the link's first rel parameter: one or more
	// space-separated relation types.
	Rel string
}

// hasRel reports whether l has relation type rel (case-insensitive).
func (l link) hasRel(rel string) bool {
	for _, r := range strings.Fields(l.Rel) {
		if strings.EqualFold(r, rel) {
			return true
		}
	}
	return false
}

// nextLink returns the target of the first link with relation type "next"
// among the values of Link header fields, unresolved.
func nextLink(values []string) (string, bool) {
	for _, v := range values {
		for _, l := range parseLinkHeader(v) {
			if l.hasRel("next") && l.URI != "" {
				return l.URI, true
			}
		}
	}
	return "", false
}

// parseLinkHeader parses one Link field value: comma-separated links, each
// "<uri>" followed by ";"-separated parameters whose values may be tokens or
// quoted strings (which may themselves contain ";" and ","). Malformed links
// are skipped, never fatal: a bad Link header just means no pagination hint.
func parseLinkHeader(s string) []link {
	var links []link
	for {
		s = strings.TrimLeft(s, " \t,")
		if s == "" {
			return links
		}
		if s[0] != '<' {
			s = skipToComma(s)
			continue
		}
		end := strings.IndexByte(s, '>')
		if end < 0 {
			return links
		}
		l := link{URI: strings.TrimSpace(s[1:end])}
		s = s[end+1:]
		relSeen := false
		for {
			s = strings.TrimLeft(s, " \t")
			if s == "" || s[0] == ',' {
				break
			}
			if s[0] != ';' {
				s = skipToComma(s)
				break
			}
			s = strings.TrimLeft(s[1:], " \t")
			var name, value string
			name, s = token(s)
			s = strings.TrimLeft(s, " \t")
			if s != "" && s[0] == '=' {
				s = strings.TrimLeft(s[1:], " \t")
				if s != "" && s[0] == '"' {
					value, s = quoted(s)
				} else {
					value, s = token(s)
				}
			}
			// RFC 8288 §3.3: only the first rel parameter counts.
			if strings.EqualFold(name, "rel") && !relSeen {
				l.Rel, relSeen = value, true
			}
		}
		links = append(links, l)
	}
}

// token returns the leading run of s up to a delimiter, and the rest.
func token(s string) (string, string) {
	i := strings.IndexAny(s, "=;, \t\"")
	if i < 0 {
		return s, ""
	}
	return s[:i], s[i:]
}

// quoted reads the quoted string at the start of s (s[0] is '"'), undoing
// backslash escapes, and returns it and the rest. An unterminated string
// runs to the end of s.
func quoted(s string) (string, string) {
	var b strings.Builder
	for i := 1; i < len(s); i++ {
		switch c := s[i]; c {
		case '"':
			return b.String(), s[i+1:]
		case '\\':
			if i+1 < len(s) {
				i++
				b.WriteByte(s[i])
			}
		default:
			b.WriteByte(c)
		}
	}
	return b.String(), ""
}

// skipToComma returns s after the next comma that is not inside a quoted
// string, or "" when there is none.
func skipToComma(s string) string {
	inQuote := false
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\\':
			if inQuote {
				i++
			}
		case '"':
			inQuote = !inQuote
		case ',':
			if !inQuote {
				return s[i+1:]
			}
		}
	}
	return ""
}
