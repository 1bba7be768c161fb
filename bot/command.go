package bot

import (
	"net/url"
	"path"
	"slices"
	"strings"

	"github.com/slack-go/slack"

	"github.com/recordsbot/recordsbot/internal/lang"
	"github.com/recordsbot/recordsbot/internal/slackapi"
)

// command is a slash command with its text decoded, once, at the edge.
// Handlers read Args and never the text as Slack sent it: Slack escapes a
// command's text (& < > as &amp; &lt; &gt;) and, with should_escape on as
// in manifest.yaml, sends what the user typed as markup: "@bob" as
// <@U0BOB|bob>, "#general" as <#C0123|general>, links as <https://…|…>,
// e-mail addresses as <mailto:a@b.org|a@b.org>
// (https://api.slack.com/interactivity/slash-commands, "Escape channels,
// users, and links sent to your app";
// https://api.slack.com/reference/surfaces/formatting#escaping). Decoding
// here means "/minutes Audit & Risk" looks up "Audit & Risk", and escaping
// happens once more, and only once, where text enters a message.
type command struct {
	Name        string // "/actions"
	UserID      string
	ChannelID   string
	ChannelName string
	ResponseURL string
	Args        commandText
}

func newCommand(sc slack.SlashCommand) command {
	return command{
		Name:        sc.Command,
		UserID:      sc.UserID,
		ChannelID:   sc.ChannelID,
		ChannelName: sc.ChannelName,
		ResponseURL: sc.ResponseURL,
		Args:        decodeCommandText(sc.Text),
	}
}

// commandText is a command's text as the user typed it.
type commandText struct {
	// Plain is the text as typed: entities decoded, mentions as @name,
	// channels as #name, links as their label (the URL when none),
	// e-mail addresses as the address.
	Plain string
	// Words are Plain's whitespace-separated words, each with what Slack
	// resolved in it.
	Words []word
}

// word is one word of a command's text.
type word struct {
	Text   string // as typed, decoded
	UserID string // set for a mention Slack resolved: <@U0BOB|bob>
	URL    string // set for a link: its target
}

// entityDecoder undoes Slack's escaping of its three control characters,
// in one pass so that "&amp;lt;" (a typed "&lt;") becomes "&lt;", not "<".
var entityDecoder = strings.NewReplacer("&amp;", "&", "&lt;", "<", "&gt;", ">")

// decodeEntities is entityDecoder's Replace, which copies s even when it
// holds no entity: most commands' words hold none.
func decodeEntities(s string) string {
	if strings.IndexByte(s, '&') < 0 {
		return s
	}
	return entityDecoder.Replace(s)
}

// decodeCommandText decodes text as Slack sends it. Outside Slack's <…>
// markup every '<' was sent as &lt;, so a '<' always opens markup; an
// unclosed one is kept as text.
func decodeCommandText(s string) commandText {
	var (
		words []word
		cur   word
		plain strings.Builder
		inTok bool // cur holds text
	)
	flush := func() {
		if inTok {
			words = append(words, cur)
		}
		cur, inTok = word{}, false
	}
	for len(s) > 0 {
		c := s[0]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			flush()
			plain.WriteByte(' ')
			s = s[1:]
		case c == '<':
			end := strings.IndexByte(s, '>')
			if end < 0 {
				txt := decodeEntities(s)
				cur.Text += txt
				plain.WriteString(txt)
				inTok = true
				s = ""
				continue
			}
			w := decodeMarkup(s[1:end])
			if cur.Text == "" && cur.UserID == "" && cur.URL == "" {
				cur = w
			} else {
				// Markup glued to other text ("(<@U1|a>)"): keep the text
				// and what was resolved.
				cur.Text += w.Text
				if w.UserID != "" {
					cur.UserID = w.UserID
				}
				if w.URL != "" {
					cur.URL = w.URL
				}
			}
			plain.WriteString(w.Text)
			inTok = true
			s = s[end+1:]
		default:
			n := strings.IndexAny(s, " \t\n\r<")
			if n < 0 {
				n = len(s)
			}
			txt := decodeEntities(s[:n])
			cur.Text += txt
			plain.WriteString(txt)
			inTok = true
			s = s[n:]
		}
	}
	flush()
	return commandText{Plain: strings.TrimSpace(plain.String()), Words: words}
}

// decodeMarkup decodes the inside of one <…>: a mention, a channel, a
// special mention, an e-mail address or a link.
func decodeMarkup(m string) word {
	target, label, hasLabel := strings.Cut(m, "|")
	label = decodeEntities(label)
	switch {
	case strings.HasPrefix(target, "@"):
		id := target[1:]
		name := label
		if !hasLabel || name == "" {
			name = id
		}
		if !slackapi.IsUserID(id) {
			// Not a user Slack resolved: only text.
			return word{Text: "@" + name}
		}
		return word{Text: "@" + name, UserID: id}
	case strings.HasPrefix(target, "#"):
		name := label
		if !hasLabel || name == "" {
			name = target[1:]
		}
		return word{Text: "#" + name}
	case strings.HasPrefix(target, "!"):
		// <!here>, <!subteam^S1|@group>, <!date^…|fallback>
		if hasLabel {
			return word{Text: label}
		}
		return word{Text: "@" + strings.TrimPrefix(target, "!")}
	case strings.HasPrefix(target, "mailto:"):
		addr := decodeEntities(strings.TrimPrefix(target, "mailto:"))
		return word{Text: addr}
	}
	u := decodeEntities(target)
	if hasLabel && label != "" {
		return word{Text: label, URL: u}
	}
	return word{Text: u, URL: u}
}

// withKeyword is t with its first word in English when it is another
// language's alias of one of keywords (lang.Keyword: "/minutes recherche
// budget" is "/minutes search budget"), so the rest of the command reads
// only English keywords. Any other first word, a committee's name
// included, is left as typed; so is t when nothing changes.
func (t commandText) withKeyword(keywords ...string) commandText {
	if len(t.Words) == 0 {
		return t
	}
	typed := t.Words[0].Text
	kw := lang.Keyword(typed)
	if kw == typed || !slices.Contains(keywords, kw) {
		return t
	}
	words := slices.Clone(t.Words)
	words[0].Text = kw
	// Plain starts with the first word as typed (decodeCommandText).
	return commandText{Plain: kw + strings.TrimPrefix(t.Plain, typed), Words: words}
}

// argument is the command's text as one argument (a committee name, a
// meeting ID or reference), with quotes people type around IDs removed. A
// lone link stands for what it points at: the last part of its path when
// it is a link to a minutes or meeting page ("https://…/minutes/mtg_42"
// means "mtg_42"), otherwise the text it shows, which is what the user
// typed when Slack turned a word such as "fin.2026" into a link.
func (t commandText) argument() string {
	if len(t.Words) == 1 && t.Words[0].URL != "" {
		if id := recordIDFromURL(t.Words[0].URL); id != "" {
			return id
		}
	}
	return strings.Trim(t.Plain, "`'\"")
}

// recordIDFromURL returns the meeting ID in a link to a minutes page or a
// meeting (…/minutes/{id}, …/meetings/{id}), or "".
func recordIDFromURL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") {
		return ""
	}
	dir, last := path.Split(strings.TrimSuffix(u.Path, "/"))
	switch path.Base(dir) {
	case "minutes", "meetings":
		if id, err := url.PathUnescape(last); err == nil {
			return id
		}
	}
	return ""
}
