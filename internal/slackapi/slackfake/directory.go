package slackfake

import (
	"encoding/base64"
	"maps"
	"net/url"
	"slices"
	"strconv"
	"strings"
)

// usersList answers users.list: every member of the workspace, the bot
// included, in pages. As Slack's page for the method says
// (https://docs.slack.dev/reference/methods/users.list), "limit" is the
// most members a page holds ("fewer than the requested number of items may
// be returned"), and with no limit Slack tries to send everyone at once;
// the next page is asked for with the "cursor" from the previous page's
// response_metadata.next_cursor, which is empty on the last page. Members
// carry tz, tz_label and tz_offset, and the profile's email.
func usersList(ws *workspace, p url.Values) (reply, error) {
	limit := 0
	if s := p.Get("limit"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 0 {
			return nil, slackError("invalid_limit")
		}
		limit = n
	}
	if limit == 0 || limit > maxUsersPage {
		limit = maxUsersPage
	}
	ids := slices.Sorted(maps.Keys(ws.users))
	start := 0
	if c := p.Get("cursor"); c != "" {
		raw, err := base64.StdEncoding.DecodeString(c)
		after, ok := strings.CutPrefix(string(raw), userCursorPrefix)
		if err != nil || !ok {
			return nil, slackError("invalid_cursor")
		}
		start, _ = slices.BinarySearch(ids, after)
	}
	end := min(start+limit, len(ids))
	members := make([]userJSON, 0, end-start)
	for _, id := range ids[start:end] {
		members = append(members, withLocale(newUserJSON(ws.users[id]), ws.users[id], p))
	}
	next := ""
	if end < len(ids) {
		// Slack's cursors look like base64 of "user:<next ID>".
		next = base64.StdEncoding.EncodeToString([]byte(userCursorPrefix + ids[end]))
	}
	return reply{
		"members":           members,
		"cache_ts":          ws.now().Unix(),
		"response_metadata": map[string]string{"next_cursor": next},
	}, nil
}

// maxUsersPage caps a users.list page. @slack/web-api documents limit as
// "an integer with a max value of 999"; Slack recommends 200 or fewer.
const maxUsersPage = 999

const userCursorPrefix = "user:"

// usersConversations answers users.conversations for the bot with
// types=im: the DMs the bot has (opened by conversations.open or by a post
// to a user ID), each with the user it is with, in pages of "limit"
// (default 100) with a "cursor", as Slack's page for the method describes
// (https://docs.slack.dev/reference/methods/users.conversations). Other
// conversation types are not modelled: asking for them answers none.
func usersConversations(ws *workspace, p url.Values) (reply, error) {
	limit := 100
	if s := p.Get("limit"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 0 {
			return nil, slackError("invalid_limit")
		}
		if n > 0 {
			limit = min(n, maxUsersPage)
		}
	}
	var ids []string
	if slices.Contains(strings.Split(p.Get("types"), ","), "im") {
		for id := range ws.openConversations {
			if strings.HasPrefix(id, "D") {
				ids = append(ids, id)
			}
		}
	}
	slices.Sort(ids)
	start := 0
	if c := p.Get("cursor"); c != "" {
		raw, err := base64.StdEncoding.DecodeString(c)
		after, ok := strings.CutPrefix(string(raw), dmCursorPrefix)
		if err != nil || !ok {
			return nil, slackError("invalid_cursor")
		}
		start, _ = slices.BinarySearch(ids, after)
	}
	end := min(start+limit, len(ids))
	channels := make([]channelJSON, 0, end-start)
	for _, id := range ids[start:end] {
		channels = append(channels, channelJSON{ID: id, IsIM: true, User: strings.TrimPrefix(id, "D")})
	}
	next := ""
	if end < len(ids) {
		next = base64.StdEncoding.EncodeToString([]byte(dmCursorPrefix + ids[end]))
	}
	return reply{"channels": channels, "response_metadata": map[string]string{"next_cursor": next}}, nil
}

const dmCursorPrefix = "channel:"
