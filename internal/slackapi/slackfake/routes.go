package slackfake

import (
	"net/http"
	"net/url"
)

// addRoutes lists every route the Server serves.
func addRoutes(mux *http.ServeMux, s *Server) {
	// Any HTTP method: slack-go POSTs most calls but GETs a few.
	mux.Handle("/api/{method}", handleAPI(s))
	mux.Handle("POST /response/{id}", handleResponse(s))
}

// apiMethods lists the Web API methods the Server answers; any other is
// answered "unknown_method". Adding a method is one entry here and its
// function in methods.go.
func apiMethods() map[string]apiMethod {
	return map[string]apiMethod{
		"auth.test":             {run: authTest},
		"chat.postEphemeral":    {run: chatPostEphemeral},
		"chat.postMessage":      {run: chatPostMessage},
		"chat.unfurl":           {run: chatUnfurl},
		"chat.update":           {run: chatUpdate},
		"conversations.history": {run: conversationsHistory},
		"entity.presentDetails": {run: entityPresentDetails},
		"conversations.replies": {run: conversationsReplies},
		"conversations.info":    {run: conversationsInfo},
		"conversations.open":    {run: conversationsOpen},
		"users.info":            {run: usersInfo},
		"users.conversations":   {run: usersConversations},
		"users.list":            {run: usersList},
		"users.lookupByEmail":   {run: usersLookupByEmail},
		"views.open":            {run: viewsOpen},
		"views.publish":         {run: viewsPublish},
		"views.update":          {run: viewsUpdate},
	}
}

// apiMethod is one Web API method.
type apiMethod struct {
	// run carries the call out once the token and limits have passed. It
	// runs with the Server's lock held, so it may change the workspace
	// freely but must not block. It returns the fields to answer beside
	// "ok":true, or a slackError.
	run func(ws *workspace, p url.Values) (reply, error)
	// appToken makes the method take the app-level token
	// ([Extension.AppToken]) instead of the bot token, as
	// apps.connections.open does.
	appToken bool
}

// appMethod runs an extension's method ([Extension.AppMethods]).
func appMethod(run func() (map[string]any, error)) func(*workspace, url.Values) (reply, error) {
	return func(*workspace, url.Values) (reply, error) {
		fields, err := run()
		if err != nil {
			return nil, slackError("internal_error")
		}
		return reply(fields), nil
	}
}

// reply is the fields of a successful answer, beside "ok":true.
type reply map[string]any

// slackError is an error code Slack answers with "ok":false, such as
// "channel_not_found".
type slackError string

func (e slackError) Error() string { return string(e) }
