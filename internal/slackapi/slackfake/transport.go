package slackfake

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// maxBodyBytes caps a request body. Slack's own limits are far lower; the
// cap only keeps a runaway client from exhausting memory.
const maxBodyBytes = 8 << 20

// answer is an HTTP response the Server has decided on.
type answer struct {
	status      int
	contentType string
	retryAfter  int // seconds; 0 sends no Retry-After header
	errCode     string
	body        []byte
	// scopes is the X-OAuth-Scopes header; sent only when scoped is set
	// (calls whose token was accepted), so an empty grant still sends it.
	scopes string
	scoped bool
	// hang holds the answer back until the client gives up (Refusal.Hang).
	hang bool
}

// okAnswer returns Slack's success envelope: {"ok":true} plus fields.
func okAnswer(fields reply) answer {
	env := make(map[string]any, len(fields)+1)
	for k, v := range fields {
		env[k] = v
	}
	env["ok"] = true
	body, err := json.Marshal(env)
	if err != nil {
		// Only a method building an unmarshalable reply gets here, which
		// is a bug in this package; answer the way Slack does when it
		// breaks.
		return errorAnswer("internal_error")
	}
	return answer{status: http.StatusOK, contentType: "application/json; charset=utf-8", body: body}
}

// errorAnswer returns Slack's refusal: HTTP 200 with {"ok":false,"error":code}.
func errorAnswer(code string) answer {
	body, _ := json.Marshal(struct {
		OK    bool   `json:"ok"`
		Error string `json:"error"`
	}{Error: code}) // cannot fail: a struct of a bool and a string
	return answer{
		status:      http.StatusOK,
		contentType: "application/json; charset=utf-8",
		errCode:     code,
		body:        body,
	}
}

func textAnswer(status int, text string) answer {
	return answer{status: status, contentType: "text/plain; charset=utf-8", body: []byte(text)}
}

func rateLimitedAnswer(retryAfter int) answer {
	a := errorAnswer("ratelimited")
	a.status = http.StatusTooManyRequests
	a.retryAfter = retryAfter
	return a
}

func (a answer) write(w http.ResponseWriter) {
	w.Header().Set("Content-Type", a.contentType)
	if a.retryAfter > 0 {
		w.Header().Set("Retry-After", strconv.Itoa(a.retryAfter))
	}
	if a.scoped {
		w.Header().Set(OAuthScopesHeader, a.scopes)
	}
	w.WriteHeader(a.status)
	// A failed write means the client has gone; there is no one to tell.
	_, _ = w.Write(a.body)
}

// inbound is a Web API request as read off the wire.
type inbound struct {
	method   string
	token    string
	params   url.Values
	body     []byte
	parseErr string // the Slack error code for a body that could not be read
}

// handleAPI serves /api/{method}, the Web API.
func handleAPI(s *Server) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		in := readInbound(w, r)
		a := s.serveAPI(in)
		if a.hang {
			select {
			case <-r.Context().Done():
			case <-s.closing:
			}
			return
		}
		a.write(w)
	})
}

// handleResponse serves POST /response/{id}, the response_urls made by
// ResponseURL.
func handleResponse(s *Server) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxBodyBytes))
		if err != nil {
			body = nil // unreadable: refused as no JSON object is
		}
		s.serveResponse(r.PathValue("id"), body).write(w)
	})
}

// readInbound reads the method, token and arguments of a Web API call.
func readInbound(w http.ResponseWriter, r *http.Request) inbound {
	in := inbound{method: r.PathValue("method")}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxBodyBytes))
	in.body = body
	if err != nil {
		in.parseErr = "invalid_form_data"
	} else {
		in.params, in.parseErr = parseParams(r.Header.Get("Content-Type"), body)
	}
	if in.params == nil {
		in.params = url.Values{}
	}
	// Slack also reads arguments from the query string, which is how
	// slack-go sends its few GET methods.
	for k, vs := range r.URL.Query() {
		for _, v := range vs {
			in.params.Add(k, v)
		}
	}
	in.token = in.params.Get("token")
	if auth, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer "); ok {
		in.token = strings.TrimSpace(auth)
	}
	in.params.Del("token")
	return in
}

// parseParams decodes a request body of the given Content-Type into
// arguments, returning the Slack error code when it cannot.
func parseParams(contentType string, body []byte) (url.Values, string) {
	if len(bytes.TrimSpace(body)) == 0 {
		// A GET, or a POST with no arguments, whatever its Content-Type:
		// slack-go calls apps.connections.open as an empty JSON POST.
		return url.Values{}, ""
	}
	mediaType, mtParams, err := mime.ParseMediaType(contentType)
	if err != nil {
		return nil, "invalid_post_type"
	}
	switch mediaType {
	case "application/x-www-form-urlencoded":
		v, err := url.ParseQuery(string(body))
		if err != nil {
			return nil, "invalid_form_data"
		}
		return v, ""
	case "application/json":
		return flattenJSON(body)
	case "multipart/form-data":
		form, err := multipart.NewReader(bytes.NewReader(body), mtParams["boundary"]).ReadForm(maxBodyBytes)
		if err != nil {
			return nil, "invalid_form_data"
		}
		// Files are not modelled; dropping their temporary copies now
		// keeps nothing on disk.
		defer func() { _ = form.RemoveAll() }()
		return url.Values(form.Value), ""
	default:
		return nil, "invalid_post_type"
	}
}

// flattenJSON turns a JSON object into arguments the way Slack reads it:
// strings as they are, other values as their JSON, nulls left out. That lets
// every method read, say, "view" or "blocks" the same way whichever encoding
// the client chose.
func flattenJSON(body []byte) (url.Values, string) {
	if !json.Valid(body) {
		return nil, "invalid_json"
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(body, &obj); err != nil || obj == nil {
		return nil, "json_not_object"
	}
	v := make(url.Values, len(obj))
	for key, raw := range obj {
		var str string
		switch {
		case bytes.Equal(raw, []byte("null")):
		case json.Unmarshal(raw, &str) == nil:
			v.Set(key, str)
		default:
			var compact bytes.Buffer
			if err := json.Compact(&compact, raw); err != nil {
				return nil, "invalid_json" // unreachable: the body was valid
			}
			v.Set(key, compact.String())
		}
	}
	return v, ""
}

// serveAPI answers a Web API call and records it. An extension's refusal
// comes first, then the body, the method, the token, the scope and the
// extension's rate limit, and only then does the method run.
func (s *Server) serveAPI(in inbound) answer {
	s.mu.Lock()
	defer s.mu.Unlock()
	call := Call{
		Method: in.method,
		Token:  in.token,
		Params: in.params,
		Body:   in.body,
		At:     s.ws.now(),
	}
	a := s.answerLocked(in, call.At)
	if a.errCode == "" && s.ext.Called != nil {
		s.ext.Called(in.method, in.params)
	}
	call.Status, call.Error = a.status, a.errCode
	s.calls = append(s.calls, call)
	s.signalLocked()
	return a
}

func (s *Server) answerLocked(in inbound, now time.Time) answer {
	if r, ok := s.refusalLocked(in.method); ok {
		if r.AfterEffect {
			_ = s.unfaultedAnswerLocked(in, now)
		}
		return r.answer()
	}
	return s.unfaultedAnswerLocked(in, now)
}

// refusalLocked asks the extension whether it refuses a call to method.
func (s *Server) refusalLocked(method string) (Refusal, bool) {
	if s.ext.Refuse == nil {
		return Refusal{}, false
	}
	return s.ext.Refuse(method)
}

// unfaultedAnswerLocked answers a call no refusal stops.
func (s *Server) unfaultedAnswerLocked(in inbound, now time.Time) answer {
	if in.parseErr != "" {
		return errorAnswer(in.parseErr)
	}
	m, ok := s.methods[in.method]
	if !ok {
		return errorAnswer("unknown_method")
	}
	want := s.token
	if m.appToken {
		want = s.ext.AppToken
	}
	switch in.token {
	case "":
		return errorAnswer("not_authed")
	case want:
	default:
		return errorAnswer("invalid_auth")
	}
	if !m.appToken {
		// Past the token check every answer, refusals included, carries
		// the token's scopes, as Slack's do.
		a := s.authedAnswerLocked(in, m, now)
		a.scopes, a.scoped = strings.Join(s.ws.grantedScopes(), ", "), true
		return a
	}
	return s.authedAnswerLocked(in, m, now)
}

// authedAnswerLocked answers a call whose token was accepted.
func (s *Server) authedAnswerLocked(in inbound, m apiMethod, now time.Time) answer {
	if scope := neededScope(in.method, in.params); !s.ws.granted(scope) {
		return missingScopeAnswer(scope, s.ws.scopes)
	}
	if s.ext.Limit != nil {
		channel := in.params.Get("channel")
		if wait, ok := s.ext.Limit(LimitedCall{Method: in.method, Channel: channel, ChannelKey: s.ws.channelKey(channel), Now: now}); !ok {
			return rateLimitedAnswer(max(wait, 1))
		}
	}
	fields, err := m.run(&s.ws, in.params)
	if err != nil {
		var code slackError
		if !errors.As(err, &code) {
			code = "internal_error"
		}
		return errorAnswer(string(code))
	}
	return okAnswer(fields)
}

// serveResponse answers a post to the response_url with id and records it.
// body is nil when it could not be read.
func (s *Server) serveResponse(id string, body []byte) answer {
	s.mu.Lock()
	defer s.mu.Unlock()
	call := Call{
		Method: ResponseMethod,
		Params: url.Values{"id": {id}},
		Body:   body,
		At:     s.ws.now(),
	}
	var a answer
	if r, ok := s.refusalLocked(ResponseMethod); ok {
		a = r.answer()
	} else if !isJSONObject(body) {
		// Slack refuses response_url posts it cannot read with a 400 and a
		// plain-text reason.
		a = textAnswer(http.StatusBadRequest, "invalid_payload")
		a.errCode = "invalid_payload"
	} else {
		s.ws.responsePosts = append(s.ws.responsePosts, ResponsePost{
			ID:   id,
			Body: json.RawMessage(body),
			At:   call.At,
		})
		if rc, ok := s.ws.responseContexts[id]; ok {
			s.ws.showResponseLocked(rc, body)
		}
		if s.ext.Shown != nil {
			s.ext.Shown(ResponseMethod, body)
		}
		// Slack answers a plain "ok", which slack-go checks for.
		a = textAnswer(http.StatusOK, "ok")
	}
	call.Status, call.Error = a.status, a.errCode
	s.calls = append(s.calls, call)
	s.signalLocked()
	return a
}
