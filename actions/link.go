package actions

import (
	"net/url"
	"strings"
	"sync"
)

// Link is the one rule for an action's own link, PUBLIC_URL/actions/{id}:
// what a person copies from a row, a reminder, a digest or a brief to
// paste elsewhere. Pasted in Slack it unfurls as the action's card, drawn
// for whoever may see it; opened in a browser it shows nothing of the
// action (bot's public route says what it is and leads into Slack). ""
// when PUBLIC_URL is not set or id is empty.
//
// Every row of every list asks, so each link is made once and kept (a
// row's redraw costs no allocation for it).
func (s *Service) Link(id string) string {
	base := strings.TrimRight(s.cfg.PublicURL, "/")
	if base == "" || id == "" {
		return ""
	}
	return s.links.get(id, func() string { return base + "/actions/" + url.PathEscape(id) })
}

// linksMax bounds the links kept: an organisation's actions, with room.
const linksMax = 20000

// links keeps each action's Link, made once.
type links struct {
	mu   sync.RWMutex
	byID map[string]string
}

func (l *links) get(id string, build func() string) string {
	l.mu.RLock()
	link, ok := l.byID[id]
	l.mu.RUnlock()
	if ok {
		return link
	}
	link = build()
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.byID == nil || len(l.byID) >= linksMax {
		l.byID = make(map[string]string)
	}
	l.byID[id] = link
	return link
}

// LinkID returns the action ID of a Link (the host compared ignoring
// case); ok is false for any other link, and always without PUBLIC_URL.
func (s *Service) LinkID(link string) (id string, ok bool) {
	base, err := url.Parse(strings.TrimRight(s.cfg.PublicURL, "/"))
	if s.cfg.PublicURL == "" || err != nil {
		return "", false
	}
	u, err := url.Parse(link)
	if err != nil || !strings.EqualFold(u.Host, base.Host) {
		return "", false
	}
	rest, ok := strings.CutPrefix(u.EscapedPath(), base.EscapedPath()+"/actions/")
	if !ok || rest == "" || strings.Contains(rest, "/") {
		return "", false
	}
	id, err = url.PathUnescape(rest)
	if err != nil || id == "" {
		return "", false
	}
	return id, true
}
