// Package redact is the one rule for showing a configured URL (in a log
// line, an error, doctor's checklist) without the secrets it may carry:
// its user and password (https://user:pass@host/) and the values of its
// query (?token=…, ?key=…), which calendar and feed hosts use as
// credentials. Everything else (scheme, host, path) is kept, so the URL
// can still be recognised.
package redact

import (
	"net/url"
	"strings"
)

// hidden stands in for each value taken out.
const hidden = "…"

// URL returns raw with its user information and query values replaced by
// "…". Text that does not parse as a URL is returned with anything
// between "://" and an "@" and after a "?" hidden, as far as it can be
// found, rather than as it is.
func URL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return roughly(raw)
	}
	if u.User == nil && u.RawQuery == "" && u.Fragment == "" {
		return raw // nothing to hide: shown as written
	}
	hadUser := u.User != nil
	u.User = nil
	if u.RawQuery != "" {
		q := u.Query()
		for k := range q {
			q[k] = []string{hidden}
		}
		u.RawQuery = strings.ReplaceAll(q.Encode(), url.QueryEscape(hidden), hidden)
	}
	u.Fragment, u.RawFragment = "", ""
	s := u.String()
	if hadUser {
		s = strings.Replace(s, "://", "://"+hidden+"@", 1)
	}
	return s
}

// roughly hides what looks like credentials in text that is not a URL.
func roughly(s string) string {
	if i := strings.Index(s, "://"); i >= 0 {
		if j := strings.LastIndex(s, "@"); j > i {
			s = s[:i+3] + hidden + s[j:]
		}
	}
	if i := strings.IndexByte(s, '?'); i >= 0 {
		s = s[:i+1] + hidden
	}
	return s
}

// Error returns err's text with every occurrence of raw in it shown as
// URL(raw): as written, or as net/http quotes it in its errors (the
// password alone masked, the query kept).
func Error(err error, raw string) string {
	if err == nil {
		return ""
	}
	if raw == "" {
		return err.Error()
	}
	msg := strings.ReplaceAll(err.Error(), raw, URL(raw))
	// net/http's errors quote the URL with only its password masked
	// (user:***@), its query kept: that form is replaced whole too.
	if u, perr := url.Parse(raw); perr == nil && u.User != nil {
		if _, has := u.User.Password(); has {
			masked := strings.Replace(raw, u.User.String()+"@", u.User.Username()+":***@", 1)
			msg = strings.ReplaceAll(msg, masked, URL(raw))
		}
	}
	return msg
}
