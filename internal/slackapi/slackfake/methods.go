package slackfake

import (
	"encoding/json"
	"fmt"
	"maps"
	"net/url"
	"slices"
	"strings"
)

// Fixed facts about the fake workspace that auth.test reports.
const (
	teamName     = "recordsbot test"
	workspaceURL = "https://recordsbot-test.slack.com/"
)

// authTest answers auth.test with the bot's identity.
func authTest(ws *workspace, _ url.Values) (reply, error) {
	return reply{
		"url":     workspaceURL,
		"team":    teamName,
		"user":    ws.users[ws.botUserID].Name,
		"team_id": TeamID,
		"user_id": ws.botUserID,
		"bot_id":  BotID,
	}, nil
}

// usersInfo answers users.info: the user named by "user", or
// "user_not_found".
func usersInfo(ws *workspace, p url.Values) (reply, error) {
	u, ok := ws.users[p.Get("user")]
	if !ok {
		return nil, slackError("user_not_found")
	}
	return reply{"user": withLocale(newUserJSON(u), u, p)}, nil
}

// withLocale adds the user's locale when the call asked for it:
// include_locale "Set this to true to receive the locale for this user.
// Defaults to false" (https://api.slack.com/methods/users.info, and the
// same argument of users.list); the user object's locale is an "IETF
// language code that represents this user's chosen display language"
// (https://api.slack.com/types/user), such as "en-US" or "fr-FR".
func withLocale(j userJSON, u User, p url.Values) userJSON {
	if p.Get("include_locale") != "true" && p.Get("include_locale") != "1" {
		return j
	}
	j.Locale = u.Locale
	if j.Locale == "" {
		j.Locale = "en-US"
	}
	return j
}

// usersLookupByEmail answers users.lookupByEmail: the user whose email
// matches "email" regardless of case, or "users_not_found".
func usersLookupByEmail(ws *workspace, p url.Values) (reply, error) {
	email := p.Get("email")
	// Sorted, so that a workspace wrongly given one email twice at least
	// answers the same user every time.
	for _, id := range slices.Sorted(maps.Keys(ws.users)) {
		if u := ws.users[id]; email != "" && strings.EqualFold(u.Email, email) {
			return reply{"user": newUserJSON(u)}, nil
		}
	}
	return nil, slackError("users_not_found")
}

// userJSON is a user as users.info describes one.
type userJSON struct {
	ID       string `json:"id"`
	TeamID   string `json:"team_id"`
	Name     string `json:"name"`
	RealName string `json:"real_name"`
	TZ       string `json:"tz"`
	Locale   string `json:"locale,omitempty"`
	IsBot    bool   `json:"is_bot"`
	Deleted  bool   `json:"deleted"`
	// Slack sends both guest flags on every user, false for a full
	// member (https://api.slack.com/types/user; see Guest).
	IsRestricted      bool        `json:"is_restricted"`
	IsUltraRestricted bool        `json:"is_ultra_restricted"`
	Profile           profileJSON `json:"profile"`
}

type profileJSON struct {
	Email       string `json:"email,omitempty"`
	RealName    string `json:"real_name"`
	DisplayName string `json:"display_name"`
	Team        string `json:"team"`
}

func newUserJSON(u User) userJSON {
	return userJSON{
		ID:       u.ID,
		TeamID:   TeamID,
		Name:     u.Name,
		RealName: u.RealName,
		TZ:       u.TZ,
		IsBot:    u.IsBot,

		IsRestricted:      u.Guest != NotGuest,
		IsUltraRestricted: u.Guest == SingleChannelGuest,
		Profile: profileJSON{
			Email:       u.Email,
			RealName:    u.RealName,
			DisplayName: u.Name,
			Team:        TeamID,
		},
	}
}

// conversationsOpen answers conversations.open. Given "users", it opens the
// bot's DM with one user ("D" followed by the user ID) or a group DM with
// several; given "channel", it reopens a conversation opened before.
func conversationsOpen(ws *workspace, p url.Values) (reply, error) {
	if id := p.Get("channel"); id != "" {
		if !ws.openConversations[id] {
			return nil, slackError("channel_not_found")
		}
		return reply{"channel": channelJSON{ID: id}, "no_op": true, "already_open": true}, nil
	}
	var users []string
	for id := range strings.SplitSeq(p.Get("users"), ",") {
		if id = strings.TrimSpace(id); id != "" && !slices.Contains(users, id) {
			users = append(users, id)
		}
	}
	if len(users) == 0 {
		return nil, slackError("users_list_not_supplied")
	}
	for _, id := range users {
		if _, ok := ws.users[id]; !ok {
			return nil, slackError("user_not_found")
		}
	}
	var ch channelJSON
	if len(users) == 1 {
		ch = channelJSON{ID: dmID(users[0]), IsIM: true, User: users[0]}
	} else {
		slices.Sort(users)
		ch = channelJSON{ID: "G" + strings.Join(users, ""), IsMPIM: true}
	}
	already := ws.openConversations[ch.ID]
	ws.openConversations[ch.ID] = true
	return reply{"channel": ch, "no_op": already, "already_open": already}, nil
}

type channelJSON struct {
	ID     string `json:"id"`
	IsIM   bool   `json:"is_im,omitempty"`
	IsMPIM bool   `json:"is_mpim,omitempty"`
	User   string `json:"user,omitempty"`
}

// chatPostMessage answers chat.postMessage: it stores a message from the
// bot in "channel" (a user ID means the DM with that user) with the next
// timestamp. It needs one of text, blocks or attachments ("no_text"
// otherwise), and refuses malformed blocks ("invalid_blocks"), attachments
// ("invalid_attachments"), metadata ("invalid_metadata_format") and
// thread_ts ("invalid_thread_ts"). The thread's parent need not be stored
// here, since the bot also replies under people's messages.
func chatPostMessage(ws *workspace, p url.Values) (reply, error) {
	channel, err := ws.postableChannel(p.Get("channel"))
	if err != nil {
		return nil, err
	}
	m := Message{Channel: channel, ThreadTS: p.Get("thread_ts"), User: ws.botUserID}
	warning, err := ws.applyContent(&m, p)
	if err != nil {
		return nil, err
	}
	if !hasContent(m) {
		return nil, slackError("no_text")
	}
	if _, ok := parseTS(m.ThreadTS); m.ThreadTS != "" && !ok {
		return nil, slackError("invalid_thread_ts")
	}
	m.TS = ws.nextTS()
	stored := storedMessage{Message: m}
	ws.messages = append(ws.messages, stored)
	return withWarning(reply{"channel": channel, "ts": m.TS, "message": newMessageJSON(stored, true)}, warning), nil
}

// chatUpdate answers chat.update: it changes the message at "ts" in
// "channel" in place and marks it edited. Text, blocks, attachments and
// metadata the call does not send are kept; an empty value removes them.
// An unknown message is "message_not_found".
func chatUpdate(ws *workspace, p url.Values) (reply, error) {
	channel, err := ws.postableChannel(p.Get("channel"))
	if err != nil {
		return nil, err
	}
	stored := ws.findMessage(channel, p.Get("ts"))
	if stored == nil {
		return nil, slackError("message_not_found")
	}
	updated := stored.Message
	warning, err := ws.applyContent(&updated, p)
	if err != nil {
		return nil, err
	}
	if !hasContent(updated) {
		return nil, slackError("no_text")
	}
	updated.Edited = true
	ws.revisedLocked("chat.update of "+updated.TS, stored.Blocks, updated.Blocks, nil)
	stored.Message = updated
	stored.editedTS = formatTS(ws.now().UnixMicro())
	return withWarning(reply{
		"channel": channel,
		"ts":      updated.TS,
		"text":    updated.Text,
		"message": newMessageJSON(*stored, true),
	}, warning), nil
}

// chatPostEphemeral answers chat.postEphemeral: it stores a message in
// "channel" that only "user" sees. A user the workspace does not hold is
// "user_not_in_channel".
func chatPostEphemeral(ws *workspace, p url.Values) (reply, error) {
	channel, err := ws.postableChannel(p.Get("channel"))
	if err != nil {
		return nil, err
	}
	user := p.Get("user")
	if _, ok := ws.users[user]; !ok {
		return nil, slackError("user_not_in_channel")
	}
	m := Message{
		Channel:   channel,
		ThreadTS:  p.Get("thread_ts"),
		User:      ws.botUserID,
		Ephemeral: true,
		ForUser:   user,
	}
	if _, err := ws.applyContent(&m, p); err != nil {
		return nil, err
	}
	if !hasContent(m) {
		return nil, slackError("no_text")
	}
	m.TS = ws.nextTS()
	ws.messages = append(ws.messages, storedMessage{Message: m})
	ws.addEphemeralLocked(Ephemeral{User: user, Channel: channel, Text: m.Text, Blocks: m.Blocks, From: "chat.postEphemeral"})
	return reply{"message_ts": m.TS}, nil
}

// chatUnfurl answers chat.unfurl by recording the unfurls, a JSON object of
// URL to attachment. The message need not be stored here: the links the bot
// unfurls are in people's messages.
func chatUnfurl(ws *workspace, p url.Values) (reply, error) {
	channel, ts, unfurls := p.Get("channel"), p.Get("ts"), p.Get("unfurls")
	// slack-go can also name the link by unfurl_id and source instead.
	if p.Get("unfurl_id") == "" {
		if channel == "" {
			return nil, slackError("channel_not_found")
		}
		if ts == "" {
			return nil, slackError("message_not_found")
		}
	}
	// "Either unfurls or metadata must be provided"
	// (https://docs.slack.dev/reference/methods/chat.unfurl); metadata
	// holds Work Objects (workobjects.go).
	entities, err := unfurlEntities(p.Get("metadata"))
	if err != nil {
		return nil, err
	}
	var raw json.RawMessage
	switch {
	case unfurls == "" && entities == nil:
		return nil, slackError("invalid_unfurls_format")
	case unfurls != "" && !isJSONObject([]byte(unfurls)):
		return nil, slackError("invalid_unfurls_format")
	case unfurls != "":
		raw = json.RawMessage(unfurls)
	}
	ws.unfurls = append(ws.unfurls, Unfurl{Channel: channel, TS: ts, Unfurls: raw, Entities: entities})
	return reply{}, nil
}

// viewsPublish answers views.publish: it stores "view", which must be a
// Home tab view ("invalid_arguments" otherwise), as user_id's Home tab and
// answers it with a new hash. A call that sends a hash other than the one
// the latest publish answered is "hash_conflict", which is how Slack stops
// a stale update overwriting a newer one.
func viewsPublish(ws *workspace, p url.Values) (reply, error) {
	userID := p.Get("user_id")
	if _, ok := ws.users[userID]; !ok {
		return nil, slackError("user_not_found")
	}
	raw := p.Get("view")
	var view map[string]json.RawMessage
	if err := json.Unmarshal([]byte(raw), &view); err != nil || view == nil {
		return nil, slackError("invalid_arguments")
	}
	var viewType string
	if err := json.Unmarshal(view["type"], &viewType); err != nil || viewType != "home" {
		return nil, slackError("invalid_arguments")
	}
	if hash := p.Get("hash"); hash != "" && hash != ws.homeViews[userID].Hash {
		return nil, slackError("hash_conflict")
	}

	ws.seq++
	id, ok := ws.viewIDs[userID]
	if !ok {
		// A user's Home tab keeps its view ID across publishes.
		id = fmt.Sprintf("V%08d", ws.seq)
		ws.viewIDs[userID] = id
	}
	var before struct {
		Blocks json.RawMessage `json:"blocks"`
	}
	if prev, ok := ws.homeViews[userID]; ok && json.Unmarshal(prev.View, &before) == nil {
		var after struct {
			Blocks json.RawMessage `json:"blocks"`
		}
		_ = json.Unmarshal([]byte(raw), &after)
		ws.revisedLocked("views.publish for "+userID, before.Blocks, after.Blocks, nil)
	}
	published := View{
		UserID: userID,
		Hash:   fmt.Sprintf("%d.%08x", ws.now().Unix(), ws.seq),
		View:   json.RawMessage(raw),
	}
	// Slack answers the view as published plus what it assigned.
	answered := maps.Clone(view)
	for key, value := range map[string]string{
		"id":                    id,
		"root_view_id":          id,
		"team_id":               TeamID,
		"app_id":                AppID,
		"app_installed_team_id": TeamID,
		"bot_id":                BotID,
		"hash":                  published.Hash,
	} {
		answered[key] = jsonString(value)
	}
	if _, ok := answered["state"]; !ok {
		answered["state"] = json.RawMessage(`{"values":{}}`)
	}
	served, err := json.Marshal(answered)
	if err != nil {
		return nil, err
	}
	published.Served = served
	ws.views = append(ws.views, published)
	ws.homeViews[userID] = published
	return reply{"view": answered}, nil
}

func jsonString(s string) json.RawMessage {
	b, _ := json.Marshal(s) // a string always marshals
	return b
}
