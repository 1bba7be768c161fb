package doctor

import (
	"context"
	"errors"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/recordsbot/recordsbot/internal/slackapi"
	"github.com/recordsbot/recordsbot/internal/words"

	"github.com/slack-go/slack"
)

// neededScopes are the bot scopes the code needs: manifest.yaml's, which a
// test keeps equal to it (the manifest sits at the repository's root, out
// of go:embed's reach from here).
var neededScopes = []string{
	"commands", "chat:write", "im:write", "im:history",
	"channels:history", "groups:history", "channels:read", "groups:read", "metadata.message:read",
	"users:read", "users:read.email", "links:read", "links:write",
}

// slackDeadline bounds each Slack call doctor makes.
const slackDeadline = 10 * time.Second

// signingSecretForm is what Slack's signing secrets look like: 32
// lowercase hex digits (Basic Information → App Credentials).
var signingSecretForm = regexp.MustCompile(`^[0-9a-f]{32}$`)

// checkSlack checks the Slack credentials: the signing secret's and app
// token's form, the bot token with auth.test, its scopes, and the report
// channel.
func checkSlack(ctx context.Context, set Settings, rep *Report) {
	switch secret := set.SigningSecret; {
	case secret == "" && set.AppToken != "":
		rep.add(secSlack, skipped("SLACK_SIGNING_SECRET not set: not needed in Socket Mode"))
	case secret == "":
		rep.add(secSlack, failed("SLACK_SIGNING_SECRET not set: every request from Slack would be refused",
			"copy Basic Information → App Credentials → Signing Secret into SLACK_SIGNING_SECRET (or use Socket Mode with SLACK_APP_TOKEN)"))
	case !signingSecretForm.MatchString(secret):
		rep.add(secSlack, failed("SLACK_SIGNING_SECRET does not look like a signing secret (32 hex digits)",
			"copy Basic Information → App Credentials → Signing Secret, not the client secret or a token"))
	default:
		rep.add(secSlack, ok("SLACK_SIGNING_SECRET looks like a signing secret"))
	}
	switch {
	case set.AppToken == "":
		rep.add(secSlack, skipped("SLACK_APP_TOKEN not set: Slack reaches the bot over HTTP (PUBLIC_URL/slack/events), not Socket Mode"))
	case !strings.HasPrefix(set.AppToken, "xapp-"):
		rep.add(secSlack, failed("SLACK_APP_TOKEN does not look like an app-level token (xapp-…)",
			"create one with connections:write under Basic Information → App-Level Tokens"))
	default:
		rep.add(secSlack, ok("SLACK_APP_TOKEN looks like an app-level token (Socket Mode)"))
	}

	if set.BotToken == "" {
		rep.add(secSlack, failed("SLACK_BOT_TOKEN not set: auth.test, scopes and the report channel not checked",
			"install the app and copy OAuth & Permissions → Bot User OAuth Token (xoxb-…) into SLACK_BOT_TOKEN"))
		return
	}
	api := slackClient(set)
	actx, cancel := context.WithTimeout(ctx, slackDeadline)
	defer cancel()
	auth, err := api.AuthTestContext(actx)
	if err != nil {
		fix := "check SLACK_BOT_TOKEN: copy OAuth & Permissions → Bot User OAuth Token (xoxb-…) again"
		if code := slackCode(err); code == "" {
			fix = "check that this host reaches Slack (" + set.SlackAPIURL + ")"
		}
		rep.add(secSlack, failed("auth.test failed: "+err.Error(), fix))
		return
	}
	rep.add(secSlack, ok("auth.test: workspace "+auth.Team+" ("+auth.URL+"), bot user @"+auth.User+" ("+auth.UserID+")"))
	rep.add(secSlack, scopesCheck(auth.Header))
	rep.add(secSlack, reportChannelCheck(ctx, api, set.ReportChannel))
	rep.add(secSlack, localesCheck(ctx, api, slackapi.NewPacer(slackapi.PacerOptions{}), set.OrgLanguage, localesPageSize, localePages))
}

// slackClient is the Slack client doctor's checks call through: the bot
// token at SLACK_API_URL, each call bounded by slackDeadline.
func slackClient(set Settings) *slack.Client {
	return slack.New(set.BotToken, slack.OptionAPIURL(set.SlackAPIURL), slack.OptionHTTPClient(&http.Client{Timeout: slackDeadline}))
}

// scopesCheck compares the scopes Slack says the token holds with what the
// code needs. Slack names them in the X-OAuth-Scopes header of every Web
// API answer, comma-separated
// (https://api.slack.com/legacy/oauth-scopes#working-with-scopes,
// slackapi/node-slack-sdk#292, slack-go/slack#1076).
func scopesCheck(h http.Header) check {
	values := h.Values("X-OAuth-Scopes")
	if len(values) == 0 {
		return advisory("Slack did not say which scopes the token holds (no X-OAuth-Scopes header)",
			"check OAuth & Permissions → Scopes against manifest.yaml by hand")
	}
	granted := parseScopes(values)
	var missing []string
	for _, s := range neededScopes {
		if !slices.Contains(granted, s) {
			missing = append(missing, s)
		}
	}
	if len(missing) > 0 {
		return failed("the bot token lacks "+strings.Join(missing, ", "),
			"add the scopes from manifest.yaml (OAuth & Permissions → Scopes, or update the app from the manifest), reinstall the app, and copy the new bot token")
	}
	return ok("bot token holds the " + words.Count(len(neededScopes), "scope", "scopes") + " the code needs")
}

// parseScopes reads the X-OAuth-Scopes header's values: scopes separated
// by commas, with or without spaces ("files:read, chat:write:bot"), empty
// items ignored.
func parseScopes(values []string) []string {
	var scopes []string
	for _, v := range values {
		for s := range strings.SplitSeq(v, ",") {
			if s = strings.TrimSpace(s); s != "" {
				scopes = append(scopes, s)
			}
		}
	}
	return scopes
}

// reportChannelCheck checks that REMIND_REPORT_CHANNEL exists and the bot
// is in it, by reading one message of its history: that needs only
// channels:history or groups:history, already in the manifest, where
// conversations.info would need channels:read and groups:read. Slack
// answers not_in_channel for a public channel the bot is not in
// (slackapi/deno-slack-sdk#128) and channel_not_found for one that does
// not exist or is private without the bot (as chat.postMessage does,
// https://api.slack.com/methods/chat.postMessage#errors).
func reportChannelCheck(ctx context.Context, api *slack.Client, channel string) check {
	if channel == "" {
		return skipped("REMIND_REPORT_CHANNEL not set: remind only logs the assignees no Slack user matches")
	}
	if !slackapi.IsChannelID(channel) {
		return skipped("REMIND_REPORT_CHANNEL not looked up: not a channel ID (see Configuration)")
	}
	hctx, cancel := context.WithTimeout(ctx, slackDeadline)
	defer cancel()
	_, err := api.GetConversationHistoryContext(hctx, &slack.GetConversationHistoryParameters{ChannelID: channel, Limit: 1})
	switch code := slackCode(err); {
	case err == nil:
		return ok("REMIND_REPORT_CHANNEL " + channel + " exists and the bot is in it")
	case code == "not_in_channel":
		return advisory("the bot is not in REMIND_REPORT_CHANNEL "+channel+": remind's report of unmatched assignees would fail",
			"invite it: /invite @recordsbot in that channel")
	case code == "missing_scope":
		return advisory("REMIND_REPORT_CHANNEL "+channel+" could not be checked: the token lacks channels:history or groups:history",
			"see the scopes line above")
	case code == "channel_not_found":
		return advisory("REMIND_REPORT_CHANNEL "+channel+" not found: it does not exist, or it is private and the bot is not in it",
			"check the ID, and invite the bot (/invite @recordsbot) if the channel is private")
	default:
		return advisory("REMIND_REPORT_CHANNEL "+channel+" could not be checked: "+err.Error(), "check the channel by hand")
	}
}

// slackCode is the Slack error code of a refused call, "" for other
// errors.
func slackCode(err error) string {
	var se slack.SlackErrorResponse
	if errors.As(err, &se) {
		return se.Err
	}
	return ""
}
