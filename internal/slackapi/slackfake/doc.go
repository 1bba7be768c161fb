// Package slackfake is a local stand-in for Slack's Web API.
//
// It serves the handful of methods recordsbot calls (auth.test, users.info,
// users.list, users.conversations, users.lookupByEmail, conversations.open,
// conversations.history, conversations.info, chat.postMessage,
// chat.update, chat.postEphemeral, chat.unfurl, entity.presentDetails,
// views.publish, views.open and views.update) plus response_url posts,
// and it records everything it is sent. The `recordsbot demo` command
// runs it in-process to show what the bot would post, and every
// end-to-end test uses it, through package slacktest, as the fake Slack.
// What only tests switch on (injected faults, rate limits and Slack's
// tiers, Socket Mode, the check for standard Markdown in mrkdwn) is
// slacktest's, built on an [Extension], so the
// binary does not link it. Point a slack-go client at it with
//
//	srv := slackfake.NewServer(slackfake.WithUsers(alice))
//	defer srv.Close()
//	api := slack.New("xoxb-test", slack.OptionAPIURL(srv.APIURL()))
//
// The server accepts what slack-go sends: form-encoded POSTs, JSON bodies
// (views.*), multipart forms and GET query strings, with the token in an
// "Authorization: Bearer" header or a "token" field. It answers the JSON
// shapes slack-go decodes, and Slack's own error codes when it refuses.
//
// # The workspace
//
// The workspace holds the users given with [WithUsers] or [Server.AddUser]
// plus the bot user, which is added automatically. Methods that name a user
// (users.info, conversations.open, views.publish, chat.postEphemeral, and
// chat.postMessage to a user ID) refuse users it does not hold, as Slack
// would. Every channel exists and the bot is a member of every channel unless
// [Server.SetBotInChannel] says otherwise. A user may be a guest
// ([User.Guest]): users.info and users.list then carry is_restricted (and,
// for a single-channel guest, is_ultra_restricted) as Slack's user object
// does.
//
// # Modals
//
// Every request the [Sender] sends carries a trigger_id the Server handed
// out ([Server.NewTrigger]); views.open exchanges one for a modal within
// three seconds, once, and checks the modal's shape. views.update takes the
// modal's hash and answers hash_conflict for a stale one. [Sender.Submit]
// sends a view_submission as Slack does and applies the app's
// response_action; [Server.Modal] shows the modal as the user sees it.
//
// # Scopes and metadata
//
// [WithScopes] grants only the given OAuth scopes and answers
// missing_scope otherwise; every answer to the bot token names the granted
// scopes in the X-OAuth-Scopes header ([OAuthScopesHeader]), as Slack's
// do. Message metadata is held to Slack's schema: metadata that breaks it
// is dropped with an invalid_metadata_schema warning, as Slack does.
//
// # Work Objects
//
// chat.unfurl's metadata holds Work Object entities, held to Slack's
// schema (entity types and the fields each accepts). [WithWorkObjects] or
// [Server.SetWorkObjects] turns the app's previews on per type;
// [Server.Card] is what the conversation sees under a link (the card, or
// the classic unfurl when previews are off). A click on a card hands out
// a trigger for that entity ([Server.EntityTrigger]; slacktest sends the
// clicks), and [Server.Panel] is the flexpane one user sees. See
// workobjects.go for the sources.
//
// # What slack-go does with failures
//
// A *slack.Client built with slack.New does not retry. An answer with
// "ok":false surfaces as a slack.SlackErrorResponse whose Err is the code
// (such as "not_in_channel"); HTTP 429 with a Retry-After header surfaces as
// a *slack.RateLimitedError whose RetryAfter is that many seconds; any other
// non-200 status surfaces as a slack.StatusCodeError. Only a client built
// with slack.OptionRetry or slack.OptionRetryConfig retries by itself: it
// sleeps for Retry-After (at least a second) and resends 429s, and resends
// 5xx answers when given slack.NewServerErrorRetryHandler. Each attempt, the
// refused ones included, is a separate [Call], so tests can count retries.
//
// # Waiting for asynchronous work
//
// The bot answers Slack within three seconds and does slow work afterwards,
// so tests wait for its follow-up calls with [Server.Wait] rather than
// sleeping. [Server.Notify] exposes the underlying signal.
package slackfake
