package minutespage

import (
	"net/http"
	"net/mail"
	"net/url"
	"strings"
	"time"

	"github.com/recordsbot/recordsbot/bot/publicweb"
)

// The accessibility statement: GET /accessibility, linked from every
// page's footer (WCAG's conformance claim and the EU Web Accessibility
// Directive's model statement ask for one: the standard, how it is
// checked, and how to report a problem). It is served with the pages,
// when PUBLIC_MINUTES is on, in the reader's language.

var statementTemplate = parseTemplate("templates/accessibility.html")

// statementDoc is the statement's content beyond the catalogue's words.
type statementDoc struct {
	// Contact is ACCESSIBILITY_CONTACT as shown, ContactHref its link
	// (mailto: for an address); both empty when it is not set.
	Contact, ContactHref string
}

// contactHref is the link of an ACCESSIBILITY_CONTACT: mailto: for an
// e-mail address, the URL itself for an http(s) one, "" for anything
// else (shown as no link at all rather than a broken one).
func contactHref(contact string) string {
	contact = strings.TrimSpace(contact)
	if u, err := url.Parse(contact); err == nil && (u.Scheme == "https" || u.Scheme == "http") && u.Host != "" {
		return u.String()
	}
	if a, err := mail.ParseAddress(contact); err == nil && a.Address == contact {
		return "mailto:" + contact
	}
	return ""
}

// ValidAccessibilityContact reports whether contact (ACCESSIBILITY_CONTACT)
// is an e-mail address or an http(s) URL, or empty.
func ValidAccessibilityContact(contact string) bool {
	return strings.TrimSpace(contact) == "" || contactHref(contact) != ""
}

// Statement serves GET /accessibility: 200 with the statement, 404 when
// PUBLIC_MINUTES is off (there are then no pages for it to be about).
func (s *Site) Statement() http.HandlerFunc {
	return s.publicOnly(baseArchive, func(w http.ResponseWriter, r *http.Request) {
		ctx := r.Context()
		v := s.view(r)
		title := v.Lang.T("page.a11y.title")
		if s.opts.OrgName != "" {
			title = v.Lang.F("page.title_org", "title", title, "org", s.opts.OrgName)
		}
		data := s.frame(title, baseArchive, v)
		doc := &statementDoc{}
		if href := contactHref(s.opts.AccessibilityContact); href != "" {
			doc.Contact, doc.ContactHref = strings.TrimSpace(s.opts.AccessibilityContact), href
		}
		data.Statement = doc
		page, err := execute(statementTemplate, data)
		if err != nil {
			s.opts.Log.ErrorContext(ctx, "accessibility statement: render failed", "error", err)
			s.writeProblem(w, r, http.StatusInternalServerError, baseArchive)
			return
		}
		h := w.Header()
		h.Set("Content-Type", "text/html; charset=utf-8")
		h.Set("Cache-Control", s.cacheShared())
		publicweb.Serve(w, r, page, etag(page), time.Time{})
	})
}
