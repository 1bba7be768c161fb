package slackfake

import (
	"bytes"
	"encoding/json"
	"net/url"
	"time"
)

// ResponseMethod is the Call.Method of posts to a response_url, and the
// method an [Extension.Refuse] is asked about for them.
const ResponseMethod = "response"

// Call is one request the Server received, recorded whatever it was
// answered: refused, faulted and rate-limited calls are recorded too.
type Call struct {
	// Method is the Web API method, such as "chat.postMessage", or
	// [ResponseMethod] for a post to a response_url.
	Method string
	// Token is the token the call presented in its Authorization header or
	// "token" field; "" when it had none.
	Token string
	// Params holds the call's arguments: the form fields and query string,
	// or for a JSON body its top-level keys, with string values as they are
	// and other values JSON-encoded (so "view" holds the view's JSON, as it
	// would in a form). The token is left out; see Token. For a
	// response_url post, Params holds only "id", the response_url's id.
	Params url.Values
	// Body is the request body as sent.
	Body []byte
	// At is when the call arrived, by the Server's clock.
	At time.Time
	// Status is the HTTP status the Server answered.
	Status int
	// Error is the Slack error code answered, such as "ratelimited"; "" when
	// the call succeeded.
	Error string
}

// Message is a message the bot posted.
type Message struct {
	Channel  string // the channel ID; a DM's "D..." ID even when posted to a user ID
	TS       string // Slack's timestamp, which is the message's ID in its channel
	ThreadTS string // the parent's TS for a thread reply; "" otherwise
	Text     string
	User     string // the author, which is the bot user
	// Blocks, Attachments and Metadata are the JSON the bot sent; nil when it
	// sent none. Metadata looks like
	// {"event_type":"...","event_payload":{...}}.
	Blocks      json.RawMessage
	Attachments json.RawMessage
	Metadata    json.RawMessage
	Edited      bool   // whether chat.update has changed the message
	Ephemeral   bool   // whether it was posted with chat.postEphemeral
	ForUser     string // the only user who sees an ephemeral message
}

// ResponsePost is a post to a response_url made by [Server.ResponseURL].
type ResponsePost struct {
	ID string // the id given to ResponseURL
	// Body is the JSON as posted, carrying fields such as text, blocks,
	// response_type, replace_original and delete_original.
	Body json.RawMessage
	At   time.Time
}

// View is a Home tab view the bot published with views.publish.
type View struct {
	UserID string          // whose Home tab
	Hash   string          // the hash the Server gave this version
	View   json.RawMessage // the view JSON as published
	// Served is the view as Slack holds it and sends it back in a
	// block_actions payload: View plus id, hash, team_id, state….
	Served json.RawMessage
}

// Unfurl is a chat.unfurl call.
type Unfurl struct {
	Channel, TS string
	// Unfurls is the JSON object of URL to attachment as sent; nil when
	// the call sent only Work Objects.
	Unfurls json.RawMessage
	// Entities are the Work Objects sent as metadata.entities.
	Entities []Entity
}

// Calls returns the calls made to method, or every call when method is "",
// oldest first. Use [ResponseMethod] for response_url posts.
func (s *Server) Calls(method string) []Call {
	s.mu.Lock()
	defer s.mu.Unlock()
	return matching(s.calls, method, func(c Call) string { return c.Method }, Call.clone)
}

// Messages returns the messages in channel, or in every channel when channel
// is "", oldest first. chat.update changes a message in place; ephemeral
// messages are included and marked.
func (s *Server) Messages(channel string) []Message {
	s.mu.Lock()
	defer s.mu.Unlock()
	return matching(s.ws.messages, channel, func(m storedMessage) string { return m.Channel }, storedMessage.clone)
}

// ResponsePosts returns the posts made to the response_url with id, or to
// every response_url when id is "", oldest first. Refused posts (see
// [Refusal]) are not included; they are in Calls(ResponseMethod).
func (s *Server) ResponsePosts(id string) []ResponsePost {
	s.mu.Lock()
	defer s.mu.Unlock()
	return matching(s.ws.responsePosts, id, func(p ResponsePost) string { return p.ID }, ResponsePost.clone)
}

// HomeView returns the view last published to userID's Home tab, and false
// when none has been.
func (s *Server) HomeView(userID string) (json.RawMessage, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	v, ok := s.ws.homeViews[userID]
	if !ok {
		return nil, false
	}
	return bytes.Clone(v.View), true
}

// servedView returns the view as Slack served it for the version of
// userID's Home tab whose published JSON is published, newest first: a
// click on a Home tab carries that version's id and hash, whatever has been
// published since.
func (s *Server) servedView(userID string, published json.RawMessage) (json.RawMessage, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for i := len(s.ws.views) - 1; i >= 0; i-- {
		if v := s.ws.views[i]; v.UserID == userID && bytes.Equal(v.View, published) {
			return bytes.Clone(v.Served), true
		}
	}
	return nil, false
}

// Views returns every view published to userID's Home tab, or to anyone's
// when userID is "", oldest first.
func (s *Server) Views(userID string) []View {
	s.mu.Lock()
	defer s.mu.Unlock()
	return matching(s.ws.views, userID, func(v View) string { return v.UserID }, View.clone)
}

// Unfurls returns the chat.unfurl calls that succeeded, oldest first.
func (s *Server) Unfurls() []Unfurl {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []Unfurl
	for _, u := range s.ws.unfurls {
		u.Unfurls = bytes.Clone(u.Unfurls)
		out = append(out, u)
	}
	return out
}

// matching returns copies of the records whose key is want, or of every
// record when want is "", in the order they were kept: what a test is
// handed cannot change what the Server holds.
func matching[T, Out any](records []T, want string, key func(T) string, clone func(T) Out) []Out {
	var out []Out
	for _, r := range records {
		if want == "" || key(r) == want {
			out = append(out, clone(r))
		}
	}
	return out
}

// The clones return a copy that shares no memory with the original, so
// callers cannot change what the Server holds.
func (m Message) clone() Message {
	m.Blocks = bytes.Clone(m.Blocks)
	m.Attachments = bytes.Clone(m.Attachments)
	m.Metadata = bytes.Clone(m.Metadata)
	return m
}

func (c Call) clone() Call {
	c.Params = cloneValues(c.Params)
	c.Body = bytes.Clone(c.Body)
	return c
}

func (p ResponsePost) clone() ResponsePost {
	p.Body = bytes.Clone(p.Body)
	return p
}

func (v View) clone() View {
	v.View = bytes.Clone(v.View)
	v.Served = bytes.Clone(v.Served)
	return v
}

func cloneValues(v url.Values) url.Values {
	if v == nil {
		return nil
	}
	out := make(url.Values, len(v))
	for k, vs := range v {
		out[k] = append([]string(nil), vs...)
	}
	return out
}
