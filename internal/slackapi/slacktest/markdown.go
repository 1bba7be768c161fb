package slacktest

import (
	"encoding/json"
	"fmt"
	"net/url"
	"regexp"
	"strings"
	"sync"
)

// Standard Markdown in mrkdwn.
//
// Slack's mrkdwn is not Markdown: it has no headings, bolds with one
// asterisk, links as <url|text>, and decodes only &amp; &lt; &gt;
// (https://docs.slack.dev/messaging/formatting-message-text). Slack shows
// standard Markdown sent as mrkdwn as it is: "# Finance", "**Present:**",
// "[the report](https://…)". It does not refuse such text, so the fake
// notes it instead (Server.MarkdownInMrkdwn), as it notes block_ids sent
// again; a test holds the app to an empty list. The notes are taken from
// what slackfake tells its extension (Extension.Called, Extension.Shown).

// markdownNotes are the notes taken so far. They are added to with
// slackfake's lock held and read without it, so they have a lock of their
// own.
type markdownNotes struct {
	mu    sync.Mutex
	notes []string
}

var markdownSyntax = []struct {
	re   *regexp.Regexp
	what string
}{
	{regexp.MustCompile(`\*\*[^*\s](?:[^*\n]*[^*\s])?\*\*`), "**bold**"},
	{regexp.MustCompile(`(?m)^(?:&gt;|>)?[ \t]*#{1,6}[ \t]+\S`), "a # heading line"},
	{regexp.MustCompile(`\[[^\]\n]+\]\((?:https?:|mailto:|/|#)[^)\s]*\)`), "a [text](url) link"},
	{regexp.MustCompile(`&amp;(?:gt|lt|amp);`), "text escaped twice (&amp;gt;)"},
}

// codeRE matches mrkdwn code, where Markdown is shown as written on
// purpose.
var codeRE = regexp.MustCompile("(?s)```.*?```|`[^`\n]*`")

// StandardMarkdown returns what in s, a mrkdwn text, is standard Markdown
// syntax Slack would show literally: "**bold**", a line starting with "#",
// "[text](url)", or "&amp;gt;" (a quote escaped twice). Code spans and
// blocks are skipped. It returns nil for clean text.
func StandardMarkdown(s string) []string {
	s = codeRE.ReplaceAllString(s, "``")
	var out []string
	for _, m := range markdownSyntax {
		if loc := m.re.FindStringIndex(s); loc != nil {
			out = append(out, fmt.Sprintf("%s: %q", m.what, s[loc[0]:loc[1]]))
		}
	}
	return out
}

// noteMarkdownLocked scans what an app sent (a message's text and blocks,
// attachments, unfurls or a view) for StandardMarkdown in its mrkdwn: every
// {"type":"mrkdwn","text":…} object, and the top-level text fields named
// in texts (a message's text is mrkdwn unless mrkdwn is false).
func (n *markdownNotes) note(where string, texts []string, raws ...string) {
	for _, t := range texts {
		for _, f := range StandardMarkdown(t) {
			n.add(where + ": text: " + f)
		}
	}
	for _, raw := range raws {
		var v any
		if raw == "" || json.Unmarshal([]byte(raw), &v) != nil {
			continue
		}
		n.walk(where, v)
	}
}

func (n *markdownNotes) walk(where string, v any) {
	switch x := v.(type) {
	case map[string]any:
		if typ, _ := x["type"].(string); typ == "mrkdwn" {
			if s, ok := x["text"].(string); ok {
				for _, f := range StandardMarkdown(s) {
					n.add(where + ": " + f)
				}
			}
		}
		for _, e := range x {
			n.walk(where, e)
		}
	case []any:
		for _, e := range x {
			n.walk(where, e)
		}
	}
}

// noteMessageMarkdownLocked scans a message body as JSON (a response_url
// post or an ack): its text, unless "mrkdwn" is false, and its blocks.
func (n *markdownNotes) shown(where string, body []byte) {
	var msg struct {
		Text   string          `json:"text"`
		Mrkdwn *bool           `json:"mrkdwn"`
		Blocks json.RawMessage `json:"blocks"`
	}
	if json.Unmarshal(body, &msg) != nil {
		return
	}
	var texts []string
	if msg.Mrkdwn == nil || *msg.Mrkdwn {
		texts = append(texts, msg.Text)
	}
	n.note(where, texts, string(msg.Blocks))
}

// messageMethods are the methods whose arguments carry message content.
var messageMethods = map[string]bool{
	"chat.postMessage": true, "chat.postEphemeral": true, "chat.update": true, "chat.scheduleMessage": true,
	"chat.unfurl": true, "views.publish": true, "views.open": true, "views.update": true, "views.push": true,
}

// noteCallMarkdownLocked scans the arguments of a Web API call.
func (n *markdownNotes) called(method string, p url.Values) {
	if !messageMethods[method] {
		return
	}
	get := func(k string) string {
		if v := p[k]; len(v) > 0 {
			return v[0]
		}
		return ""
	}
	var texts []string
	if get("mrkdwn") != "false" && !strings.HasPrefix(method, "views.") {
		texts = append(texts, get("text"))
	}
	n.note(method, texts, get("blocks"), get("attachments"), get("unfurls"), get("view"))
}

// MarkdownInMrkdwn lists the standard Markdown the app sent as mrkdwn (see
// StandardMarkdown), each as "where: what: text". A well-behaved app
// leaves it empty.
func (s *Server) MarkdownInMrkdwn() []string {
	s.markdown.mu.Lock()
	defer s.markdown.mu.Unlock()
	return append([]string(nil), s.markdown.notes...)
}

func (n *markdownNotes) add(note string) {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.notes = append(n.notes, note)
}
