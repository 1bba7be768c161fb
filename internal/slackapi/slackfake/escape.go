package slackfake

import (
	"regexp"
	"strings"
)

// What Slack does to the text of a slash command.
//
// Slack sends a command's text with its three control characters escaped
// as HTML entities, & as &amp;, < as &lt; and > as &gt;
// (https://api.slack.com/reference/surfaces/formatting#escaping), and, for
// a command with "Escape channels, users, and links sent to your app" on
// (should_escape: true in the manifest, as recordsbot's are), it turns the
// mentions, channels, links and e-mail addresses the user typed into
// Slack's own markup (https://api.slack.com/interactivity/slash-commands):
//
//	@bob                  → <@U0BOB|bob>
//	#general              → <#C0GENERAL|general>
//	https://example.org/x → <https://example.org/x>
//	example.org           → <http://example.org|example.org>
//	a@b.org               → <mailto:a@b.org|a@b.org>
//
// EscapeCommandText does the same, for the fake's request builder. A
// mention of a name nobody in users has stays as typed, as it does in
// Slack when the user picks no one from the autocomplete.

var (
	urlRE    = regexp.MustCompile(`^https?://[^\s<>|]+$`)
	emailRE  = regexp.MustCompile(`^[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}$`)
	domainRE = regexp.MustCompile(`^(?:[A-Za-z0-9-]+\.)+(?:com|org|net|io|co|uk|gov|edu|dev|app)$`)
	handleRE = regexp.MustCompile(`^@([A-Za-z0-9._-]+)$`)
	chanRE   = regexp.MustCompile(`^#([a-z0-9_-]+)$`)
)

// EscapeCommandText returns typed as Slack sends it in a slash command's
// text field with should_escape on; users are the workspace's members,
// whose handles (User.Name) the mentions are resolved against.
func EscapeCommandText(typed string, users []User) string {
	var b strings.Builder
	i := 0
	for i < len(typed) {
		// Keep the user's spacing exactly: escape word by word.
		j := i
		for j < len(typed) && !isSpace(typed[j]) {
			j++
		}
		if j > i {
			b.WriteString(escapeWord(typed[i:j], users))
		}
		k := j
		for k < len(typed) && isSpace(typed[k]) {
			k++
		}
		b.WriteString(typed[j:k])
		i = k
	}
	return b.String()
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' }

func escapeWord(w string, users []User) string {
	// Trailing punctuation is not part of a link or mention.
	core := strings.TrimRight(w, ".,;:!?)")
	tail := w[len(core):]
	switch {
	case handleRE.MatchString(core):
		name := handleRE.FindStringSubmatch(core)[1]
		for _, u := range users {
			if strings.EqualFold(u.Name, name) {
				return "<@" + u.ID + "|" + u.Name + ">" + escapeEntities(tail)
			}
		}
	case chanRE.MatchString(core):
		name := chanRE.FindStringSubmatch(core)[1]
		return "<#C0" + strings.ToUpper(strings.ReplaceAll(name, "-", "")) + "|" + name + ">" + escapeEntities(tail)
	case urlRE.MatchString(core):
		return "<" + escapeEntities(core) + ">" + escapeEntities(tail)
	case emailRE.MatchString(core):
		return "<mailto:" + core + "|" + core + ">" + escapeEntities(tail)
	case domainRE.MatchString(core):
		return "<http://" + core + "|" + core + ">" + escapeEntities(tail)
	}
	return escapeEntities(w)
}

// escapeEntities escapes Slack's three control characters.
func escapeEntities(s string) string {
	return entityEscaper.Replace(s)
}

var entityEscaper = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;")

// channelName is the name Slack sends for a channel ID when none is given:
// "directmessage" for a DM, as in a command typed in one.
func channelName(id string) string {
	if strings.HasPrefix(id, "D") {
		return "directmessage"
	}
	return "general"
}

// users returns the workspace's members.
func (s *Server) users() []User {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]User, 0, len(s.ws.users))
	for _, u := range s.ws.users {
		out = append(out, u)
	}
	return out
}
