package doctor

import (
	"net/url"
	"slices"

	"github.com/recordsbot/recordsbot/apiclient"
	"github.com/recordsbot/recordsbot/internal/lang"
)

// Settings are what doctor checks: the configuration as start-up parsed
// it (cmd/recordsbot's parseSettings), each variable read once, trimmed
// and with its default, whatever could be read of it, and every problem
// found. Doctor parses no variable again.
type Settings struct {
	// SigningSecret is SLACK_SIGNING_SECRET, BotToken SLACK_BOT_TOKEN,
	// AppToken SLACK_APP_TOKEN ("" for HTTP mode) and SlackAPIURL
	// SLACK_API_URL (Slack's own by default).
	SigningSecret, BotToken, AppToken, SlackAPIURL string
	// RecordsURL is RECORDS_API_URL and RecordsKey RECORDS_API_KEY.
	RecordsURL, RecordsKey string
	// FieldMap is RECORDS_FIELD_MAP; empty when unset or unreadable.
	FieldMap apiclient.FieldMap
	// OrgLanguage is ORG_LANGUAGE (English when unset).
	OrgLanguage lang.Lang
	// PublicURL is PUBLIC_URL; "" when unset.
	PublicURL string
	// Admins are ADMIN_USER_IDS, without blanks; UserMap is USER_MAP.
	Admins  []string
	UserMap map[string]string
	// ReportChannel is REMIND_REPORT_CHANNEL.
	ReportChannel string
	// Holidays is REMIND_HOLIDAYS as written: doctor reads it (a file, a
	// URL fetched) as start-up does, to show what it finds.
	Holidays string
	// WorkObjects is WORK_OBJECTS: unfurl as Work Object cards.
	WorkObjects bool
	// DatabaseURL is DATABASE_URL, with its default.
	DatabaseURL string
	// Problems are every variable that could not be read or that serve,
	// remind or watch would refuse, in the order start-up lists them.
	Problems []Problem
}

// Problem is one bad or missing variable.
type Problem struct {
	// Name is the variable; Text the one line start-up prints, starting
	// with the name.
	Name, Text string
}

// problem reports whether the variable name has a problem.
func (s Settings) problem(name string) bool {
	return slices.ContainsFunc(s.Problems, func(p Problem) bool { return p.Name == name })
}

// redacted is u without any credentials in it, for the checklist.
func redacted(u string) string {
	p, err := url.Parse(u)
	if err != nil {
		return "(unparsable)"
	}
	return p.Redacted()
}
