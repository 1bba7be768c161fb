package slackfake

import (
	"encoding/json"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strings"
)

// WithScopes models the bot token's granted OAuth scopes. With it, a
// method called without the scope it needs is answered "missing_scope"
// with "needed" (the scope it lacks) and "provided" (the scopes granted),
// as Slack answers (the needed/provided fields of every @slack/web-api
// response type, e.g. ConversationsHistoryResponse). Without it every
// scope is granted, the default.
//
// conversations.history needs channels:history on a public channel (C…),
// groups:history on a private one (G…) and im:history on a DM (D…); the
// metadata of the messages it answers needs metadata.message:read
// ("Allows your Slack app to read message metadata in channels that your
// Slack app has been added to",
// https://docs.slack.dev/reference/scopes/metadata.message.read): without
// it the history comes back without metadata.
func WithScopes(scopes ...string) Option {
	return func(s *Server) { s.ws.scopes = slices.Clone(scopes) }
}

// OAuthScopesHeader is the response header in which Slack names the
// scopes granted to the token a Web API call was made with, on every call,
// failed ones included, comma-separated ("X-OAuth-Scopes: files:read,
// chat:write:bot"): https://api.slack.com/legacy/oauth-scopes#working-with-scopes,
// slackapi/node-slack-sdk#292, slack-go/slack#1076, zulip/zulip#16788. The
// Server sends it on every call made with the bot token it accepts: the
// scopes given with [WithScopes], or [ManifestScopes] without it.
const OAuthScopesHeader = "X-OAuth-Scopes"

// ManifestScopes returns the bot scopes manifest.yaml asks for, which a
// token holds when the app was installed from it: what the Server reports
// as granted unless [WithScopes] says otherwise. A test keeps the list
// equal to the manifest's.
func ManifestScopes() []string {
	return []string{
		"commands", "chat:write", "im:write", "im:history",
		"channels:history", "groups:history", "channels:read", "groups:read", "metadata.message:read",
		"users:read", "users:read.email", "links:read", "links:write",
	}
}

// grantedScopes are the scopes the token holds, for the header.
func (ws *workspace) grantedScopes() []string {
	if ws.scopes == nil {
		return ManifestScopes()
	}
	return ws.scopes
}

// methodScopes is the scope each method needs of a bot token, from each
// method's page and Slack's published OpenAPI spec (slackapi/slack-api-specs).
var methodScopes = map[string]string{
	"chat.postMessage":    "chat:write",
	"chat.postEphemeral":  "chat:write",
	"chat.update":         "chat:write",
	"chat.unfurl":         "links:write",
	"conversations.open":  "im:write",
	"users.conversations": "im:read", // for types=im, the only type modelled
	"users.info":          "users:read",
	"users.list":          "users:read",
	"users.lookupByEmail": "users:read.email",
}

// neededScope is the scope a call of method with p needs, or "".
func neededScope(method string, p url.Values) string {
	// conversations.replies needs the same history scopes
	// (https://docs.slack.dev/reference/methods/conversations.replies).
	if method == "conversations.history" || method == "conversations.replies" {
		switch ch := p.Get("channel"); {
		case strings.HasPrefix(ch, "D"):
			return "im:history"
		case strings.HasPrefix(ch, "G"):
			return "groups:history"
		default:
			return "channels:history"
		}
	}
	if method == "conversations.info" {
		// The read scope of the conversation's kind
		// (https://docs.slack.dev/reference/methods/conversations.info).
		switch ch := p.Get("channel"); {
		case strings.HasPrefix(ch, "D"):
			return "im:read"
		case strings.HasPrefix(ch, "G"):
			return "groups:read"
		default:
			return "channels:read"
		}
	}
	return methodScopes[method]
}

// granted reports whether the token holds scope.
func (ws *workspace) granted(scope string) bool {
	return ws.scopes == nil || scope == "" || slices.Contains(ws.scopes, scope)
}

// missingScopeAnswer is Slack's refusal of a call the token lacks a scope
// for.
func missingScopeAnswer(needed string, provided []string) answer {
	body, _ := json.Marshal(map[string]any{ // a map of strings always marshals
		"ok": false, "error": "missing_scope", "needed": needed, "provided": strings.Join(provided, ","),
	})
	return answer{status: http.StatusOK, contentType: "application/json; charset=utf-8", errCode: "missing_scope", body: body}
}

// metadataEventType is what Slack accepts as an event_type: "letters,
// numbers, underscores, and hyphens, but not periods or other punctuation"
// (https://docs.slack.dev/messaging/message-metadata).
var metadataEventType = regexp.MustCompile(`^[A-Za-z0-9_-]+$`)

// InvalidMetadataSchema is the warning Slack adds to a chat.postMessage or
// chat.update answer whose metadata breaks the schema; the message is
// posted without the metadata ("Metadata with an invalid event_type
// returns an invalid_metadata_schema warning and is ignored",
// https://docs.slack.dev/messaging/message-metadata).
const InvalidMetadataSchema = "invalid_metadata_schema"

// validPayload reports whether v is a valid event_payload object: its
// values strings, numbers, booleans, objects of the same kind, or arrays of
// such objects, as @slack/types' MessageMetadataEventPayloadObject defines
// ({[key]: string | number | boolean | MessageMetadataEventPayloadObject |
// MessageMetadataEventPayloadObject[]}). An array of strings, a null or an
// array of arrays is not.
func validPayload(v any) bool {
	obj, ok := v.(map[string]any)
	if !ok {
		return false
	}
	for _, val := range obj {
		switch x := val.(type) {
		case string, float64, bool:
		case map[string]any:
			if !validPayload(x) {
				return false
			}
		case []any:
			for _, el := range x {
				if !validPayload(el) {
					return false
				}
			}
		default:
			return false
		}
	}
	return true
}

// withWarning adds Slack's warning fields to a successful answer: the
// comma-joined "warning" and response_metadata.warnings, as Slack's Web API
// reports warnings (https://docs.slack.dev/apis/web-api/#responses).
func withWarning(r reply, warning string) reply {
	if warning == "" {
		return r
	}
	r["warning"] = warning
	md, _ := r["response_metadata"].(map[string]any)
	if md == nil {
		md = map[string]any{}
	}
	md["warnings"] = []string{warning}
	r["response_metadata"] = md
	return r
}
