// Package slackapi holds what the bot's edge and its jobs both need of
// Slack's Web API beyond slack-go: reading an error's code, naming the
// method of a request, and logging the warnings Slack returns.
package slackapi

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"strings"

	"github.com/slack-go/slack"
)

// maxWarningScan is how much of an answer is read to find its warnings.
const maxWarningScan = 1 << 20

// ErrorCode returns the error code of a Slack Web API error
// ("not_in_channel"), or "".
func ErrorCode(err error) string {
	var se slack.SlackErrorResponse
	if errors.As(err, &se) {
		return se.Err
	}
	var sp *slack.SlackErrorResponse
	if errors.As(err, &sp) {
		return sp.Err
	}
	return ""
}

// Method names the Web API method of a request path such as
// "/api/chat.postMessage"; any other path is a response_url (Slack's are
// https://hooks.slack.com/commands/… and /actions/…).
func Method(path string) string {
	i := strings.LastIndex(path, "/api/")
	if i < 0 {
		return "response_url"
	}
	method := path[i+len("/api/"):]
	if method == "" || len(method) > 64 || strings.TrimFunc(method, func(r rune) bool {
		return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r == '.' || r == '_'
	}) != "" {
		return "other"
	}
	return method
}

// RoundTripFunc is an http.RoundTripper made of a function.
type RoundTripFunc func(*http.Request) (*http.Response, error)

// RoundTrip calls f.
func (f RoundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// WarningTransport wraps next (http.DefaultTransport when nil) so that
// every warning Slack returns on a Web API call is logged: "warning" and
// response_metadata.warnings (https://docs.slack.dev/apis/web-api/#responses),
// such as invalid_metadata_schema when a message's metadata was dropped.
// slack-go's OptionOnWarning is not enough: chat.postMessage, the call
// whose warning matters most here, bypasses it. Only the method and the
// warnings are logged, never the request.
func WarningTransport(next http.RoundTripper, log *slog.Logger) http.RoundTripper {
	if next == nil {
		next = http.DefaultTransport
	}
	return RoundTripFunc(func(r *http.Request) (*http.Response, error) {
		resp, err := next.RoundTrip(r)
		if err != nil || !strings.Contains(resp.Header.Get("Content-Type"), "json") {
			return resp, err
		}
		// Slack's answers are small; one larger than the cap is passed on
		// unread past it.
		head, rerr := io.ReadAll(io.LimitReader(resp.Body, maxWarningScan))
		resp.Body = struct {
			io.Reader
			io.Closer
		}{io.MultiReader(bytes.NewReader(head), resp.Body), resp.Body}
		if rerr != nil || !bytes.Contains(head, []byte(`"warning`)) {
			return resp, err
		}
		var w struct {
			Warning          string `json:"warning"`
			ResponseMetadata struct {
				Warnings []string `json:"warnings"`
			} `json:"response_metadata"`
		}
		if json.Unmarshal(head, &w) == nil && (w.Warning != "" || len(w.ResponseMetadata.Warnings) > 0) {
			log.WarnContext(r.Context(), "slack: the Web API returned a warning", "method", Method(r.URL.Path),
				"warning", w.Warning, "warnings", w.ResponseMetadata.Warnings)
		}
		return resp, err
	})
}
