package bot

import (
	"net/url"
	"slices"
	"strings"

	"github.com/slack-go/slack"
)

// slashForm reads a slash command's form body as url.ParseQuery and
// slack.SlashCommandParse together read it (the first value of each
// field), in one pass and without building a url.Values map: a cached
// /actions costs little more than this, the signature and a write. The
// fields' strings share one copy of the body unless they are escaped.
//
// ok is false for anything else: a body without a command or with an
// interaction's payload, and anything url.ParseQuery could refuse or read
// differently (a semicolon, a malformed escape, very many fields); the
// caller then parses it the general way, which answers it as before.
// FuzzSlashForm holds the two readings equal.
func slashForm(body []byte) (sc slack.SlashCommand, ok bool) {
	s := string(body)
	if strings.Count(s, "&") > maxSlashFields || strings.Contains(s, ";") {
		return sc, false
	}
	var enterprise string
	// In the order of slashFields.
	dst := [...]*string{&sc.Command, &sc.Token, &sc.TeamID, &sc.TeamDomain, &sc.EnterpriseID, &sc.EnterpriseName, &enterprise,
		&sc.ChannelID, &sc.ChannelName, &sc.UserID, &sc.UserName, &sc.Text, &sc.ResponseURL, &sc.TriggerID, &sc.APIAppID}
	var seen [len(slashFields)]bool
	for s != "" {
		var kv string
		kv, s, _ = strings.Cut(s, "&")
		if kv == "" {
			continue
		}
		k, v, _ := strings.Cut(kv, "=")
		var err error
		if escaped(k) {
			if k, err = url.QueryUnescape(k); err != nil {
				return sc, false
			}
		}
		if k == "payload" {
			return sc, false
		}
		i := slices.Index(slashFields[:], k)
		if i < 0 || seen[i] {
			// Not read, or not the first value (url.Values.Get), but
			// url.ParseQuery refuses a malformed escape anywhere.
			if !validEscapes(v) {
				return sc, false
			}
			continue
		}
		seen[i] = true
		if escaped(v) {
			if v, err = url.QueryUnescape(v); err != nil {
				return sc, false
			}
		}
		*dst[i] = v
	}
	sc.IsEnterpriseInstall = enterprise == "true"
	return sc, seen[0]
}

// escaped reports whether s holds a % escape or a + for a space. Two
// IndexByte calls are several times quicker than strings.ContainsAny on
// the short strings of a form.
func escaped(s string) bool {
	return strings.IndexByte(s, '%') >= 0 || strings.IndexByte(s, '+') >= 0
}

// maxSlashFields bounds the fields slashForm reads; Slack sends about
// fifteen.
const maxSlashFields = 64

// slashFields are the fields of a slash command that
// slack.SlashCommandParse reads, "command" first.
var slashFields = [...]string{"command", "token", "team_id", "team_domain", "enterprise_id", "enterprise_name", "is_enterprise_install",
	"channel_id", "channel_name", "user_id", "user_name", "text", "response_url", "trigger_id", "api_app_id"}

// validEscapes reports whether every % in s starts an escape that
// url.QueryUnescape accepts: two hexadecimal digits.
func validEscapes(s string) bool {
	for {
		i := strings.IndexByte(s, '%')
		if i < 0 {
			return true
		}
		if i+2 >= len(s) || !isHex(s[i+1]) || !isHex(s[i+2]) {
			return false
		}
		s = s[i+3:]
	}
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}
