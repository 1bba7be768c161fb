package doctor

import (
	"cmp"
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/slack-go/slack"

	"github.com/recordsbot/recordsbot/internal/lang"
	"github.com/recordsbot/recordsbot/internal/slackapi"
	"github.com/recordsbot/recordsbot/internal/words"
)

// languagesCheck names the languages recordsbot ships (internal/lang)
// and the one ORG_LANGUAGE makes the organisation's: channel posts, and
// the language of members whose Slack locale is not shipped.
func languagesCheck(org lang.Lang) check {
	var names []string
	for _, l := range lang.Shipped() {
		names = append(names, l.Name()+" ("+l.Code()+")")
	}
	return ok("languages shipped: " + strings.Join(names, ", ") + "; ORG_LANGUAGE is " + org.Code())
}

// Reading the members' locales. users.list is Tier 2 (about 20 calls a
// minute, https://docs.slack.dev/reference/methods/users.list), so its
// pages go through a slackapi.Pacer at that rate, and are as large as the
// method allows (limit "an integer with a max value of 999", @slack/web-api's
// UsersListArguments), so that a workspace of 5,000 costs 5 calls; doctor
// reads at most localePages pages, and says so when it stopped there.
const (
	localesPageSize = 999
	localePages     = 5
	localesDeadline = 30 * time.Second
)

// localesCheck reads every member's Slack locale from users.list, asked
// with include_locale=true (without it Slack leaves locale out of the
// user objects), page by page through the pacer, and says which locales
// the workspace's people use and which language each reads: its own when
// recordsbot ships it, else ORG_LANGUAGE. Bots, Slackbot and deactivated
// accounts read nothing and are not counted. A failure is advisory: the
// bot still answers, in ORG_LANGUAGE for whoever it cannot tell.
func localesCheck(ctx context.Context, api *slack.Client, pacer *slackapi.Pacer, org lang.Lang, pageSize, maxPages int) check {
	lctx, cancel := context.WithTimeout(ctx, localesDeadline)
	defer cancel()
	p := api.GetUsersPaginated(slack.GetUsersOptionLimit(pageSize), slack.GetUsersOptionIncludeLocale(true))
	counts := map[string]int{}
	members, pages, more := 0, 0, true
	for more && pages < maxPages {
		err := pacer.Call(lctx, "users.list", "", func(ctx context.Context) error {
			var e error
			p, e = p.Next(ctx)
			return e
		})
		if err != nil {
			fix := "check the users:read scope (see the scopes line above); the bot answers in ORG_LANGUAGE whoever's locale it cannot read"
			return advisory("members' Slack locales not read: users.list: "+err.Error(), fix)
		}
		pages++
		more = p.Cursor != ""
		for _, u := range p.Users {
			if u.IsBot || u.Deleted || u.ID == "USLACKBOT" {
				continue
			}
			members++
			counts[u.Locale]++
		}
	}
	if members == 0 {
		return skipped("members' Slack locales: users.list lists no people yet")
	}
	locales := slices.SortedFunc(maps.Keys(counts), func(a, b string) int {
		return cmp.Or(counts[b]-counts[a], strings.Compare(a, b))
	})
	others := 0
	var details []string
	for _, loc := range locales {
		n := counts[loc]
		l := lang.ForLocale(loc, org)
		shown := cmp.Or(loc, "(not said)")
		if _, shipped := shippedFor(loc); !shipped {
			others += n
			details = append(details, fmt.Sprintf("%s: %s, reading %s (ORG_LANGUAGE; %s is not shipped)", shown, words.Count(n, "member", "members"), l.Name(), shown))
			continue
		}
		details = append(details, fmt.Sprintf("%s: %s, reading %s", shown, words.Count(n, "member", "members"), l.Name()))
	}
	text := fmt.Sprintf("members' Slack locales: %s use %s", words.Count(members, "member", "members"), words.Count(len(locales), "locale", "locales"))
	if others > 0 {
		text += fmt.Sprintf("; %s ORG_LANGUAGE (%s), their own not being shipped", words.Count(others, "member reads", "members read"), org.Code())
	}
	if more {
		text += fmt.Sprintf(" (the first %s of users.list only: doctor reads no more, to keep within its rate limit)", words.Count(pages, "page", "pages"))
	}
	return ok(text, details...)
}

// shippedFor is the shipped language of a Slack locale, if any.
func shippedFor(locale string) (lang.Lang, bool) {
	l, err := lang.Parse(locale)
	return l, err == nil && strings.TrimSpace(locale) != ""
}
