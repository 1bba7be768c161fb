// Package slacktest is the fake Slack of package slackfake with what only
// tests use: injected faults ([Server.InjectFault]), a per-channel rate
// limit ([WithChannelRateLimit]), Slack's rate-limit tiers ([WithTiers],
// answering 429 with Retry-After beyond them on the Server's clock, see
// [ScaledClock] to compress it; [Server.TierReport] projects a run's calls
// onto real Slack time), Socket Mode (apps.connections.open and its
// websocket; see [Server.WaitSocket]), the standard Markdown the app
// sent as mrkdwn, which Slack would show literally
// ([Server.MarkdownInMrkdwn]), the block_ids an update sent again, which
// Slack asks an app not to ([Server.BlockIDReuse]); and what tests send
// as Slack beyond the demo console (sender.go): the request URL checks
// ([SSLCheck], [VerifyRequestURL]), Socket Mode's command payloads
// ([CommandPayload], [Server.ResponseURLFor]) and the clicks on a Work
// Object card and its flexpane ([OpenPanel], [PressPanelButton]). The
// workspace, the methods, what users see and the [Sender] that speaks for
// Slack are slackfake's (see its documentation); their names are repeated
// here so a test needs one import.
//
//	srv := slacktest.NewServer(slacktest.WithUsers(alice), slacktest.WithTiers())
//	t.Cleanup(srv.Close)
//	api := slack.New(slacktest.DefaultToken, slack.OptionAPIURL(srv.APIURL()))
package slacktest
