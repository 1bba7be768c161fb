package slackfake

import (
	"bytes"
	"encoding/json"
	"io"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/slack-go/slack"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// rawCall makes a Web API call by hand, for encodings slack-go does not use
// for the method at hand, and returns the HTTP status and decoded body.
func rawCall(t *testing.T, srv *Server, httpMethod, apiMethod, contentType, body string) (int, map[string]any) {
	t.Helper()
	req, err := http.NewRequestWithContext(t.Context(), httpMethod, srv.APIURL()+apiMethod, strings.NewReader(body))
	require.NoError(t, err)
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	req.Header.Set("Authorization", "Bearer "+DefaultToken)
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer func() { require.NoError(t, resp.Body.Close()) }()
	raw, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	var decoded map[string]any
	require.NoErrorf(t, json.Unmarshal(raw, &decoded), "body %q", raw)
	return resp.StatusCode, decoded
}

func TestRequestEncodings(t *testing.T) {
	t.Parallel()
	const blocks = `[{"type":"section","text":{"type":"mrkdwn","text":"hi"}}]`
	var multipartBody bytes.Buffer
	mw := multipart.NewWriter(&multipartBody)
	require.NoError(t, mw.WriteField("channel", "C1"))
	require.NoError(t, mw.WriteField("text", "from multipart"))
	require.NoError(t, mw.Close())

	tests := map[string]struct {
		contentType string
		body        string
		wantText    string
		wantParams  url.Values
	}{
		"form": {
			contentType: "application/x-www-form-urlencoded",
			body:        url.Values{"channel": {"C1"}, "text": {"from a form"}, "blocks": {blocks}}.Encode(),
			wantText:    "from a form",
			wantParams:  url.Values{"channel": {"C1"}, "text": {"from a form"}, "blocks": {blocks}},
		},
		"json": {
			contentType: "application/json; charset=utf-8",
			body: `{"channel":"C1","text":"from JSON","unfurl_links":true,"thread_ts":null,
				"blocks":[ {"type":"section", "text":{"type":"mrkdwn","text":"hi"}} ]}`,
			wantText:   "from JSON",
			wantParams: url.Values{"channel": {"C1"}, "text": {"from JSON"}, "unfurl_links": {"true"}, "blocks": {blocks}},
		},
		"json with blocks as a string": {
			contentType: "application/json",
			body:        mustJSON(t, map[string]any{"channel": "C1", "text": "stringly", "blocks": blocks}),
			wantText:    "stringly",
			wantParams:  url.Values{"channel": {"C1"}, "text": {"stringly"}, "blocks": {blocks}},
		},
		"multipart": {
			contentType: mw.FormDataContentType(),
			body:        multipartBody.String(),
			wantText:    "from multipart",
			wantParams:  url.Values{"channel": {"C1"}, "text": {"from multipart"}},
		},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			srv, _ := newTestServer(t)

			status, got := rawCall(t, srv, http.MethodPost, "chat.postMessage", tt.contentType, tt.body)

			assert.Equal(t, http.StatusOK, status)
			assert.Equal(t, true, got["ok"], "answer %v", got)
			msgs := srv.Messages("C1")
			require.Len(t, msgs, 1)
			assert.Equal(t, tt.wantText, msgs[0].Text)
			calls := srv.Calls("chat.postMessage")
			require.Len(t, calls, 1)
			assert.Equal(t, tt.wantParams, calls[0].Params)
			assert.Equal(t, tt.body, string(calls[0].Body))
		})
	}
}

func TestRequestErrors(t *testing.T) {
	t.Parallel()
	tests := map[string]struct {
		httpMethod  string
		apiMethod   string
		contentType string
		body        string
		want        string
	}{
		"unknown method":     {apiMethod: "chat.teleport", contentType: "application/x-www-form-urlencoded", body: "channel=C1", want: "unknown_method"},
		"malformed JSON":     {apiMethod: "chat.postMessage", contentType: "application/json", body: `{"channel":`, want: "invalid_json"},
		"JSON not an object": {apiMethod: "chat.postMessage", contentType: "application/json", body: `["C1"]`, want: "json_not_object"},
		"unknown encoding":   {apiMethod: "chat.postMessage", contentType: "text/plain", body: "hello", want: "invalid_post_type"},
		"malformed blocks":   {apiMethod: "chat.postMessage", contentType: "application/x-www-form-urlencoded", body: "channel=C1&blocks=%7B", want: "invalid_blocks"},
		"blocks not a list":  {apiMethod: "chat.postMessage", contentType: "application/json", body: `{"channel":"C1","blocks":{"type":"divider"}}`, want: "invalid_blocks"},
		"metadata without event type": {
			apiMethod: "chat.postMessage", contentType: "application/json",
			body: `{"channel":"C1","text":"hi","metadata":{"event_payload":{}}}`, want: "invalid_metadata_format",
		},
		"unfurls not an object": {apiMethod: "chat.unfurl", contentType: "application/x-www-form-urlencoded", body: "channel=C1&ts=1.2&unfurls=%5B%5D", want: "invalid_unfurls_format"},
		"bad oldest":            {httpMethod: http.MethodGet, apiMethod: "conversations.history?channel=C1&oldest=soon", want: "invalid_ts_oldest"},
		"bad limit":             {httpMethod: http.MethodGet, apiMethod: "conversations.history?channel=C1&limit=many", want: "invalid_limit"},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			srv, _ := newTestServer(t)
			httpMethod := tt.httpMethod
			if httpMethod == "" {
				httpMethod = http.MethodPost
			}

			status, got := rawCall(t, srv, httpMethod, tt.apiMethod, tt.contentType, tt.body)

			assert.Equal(t, http.StatusOK, status)
			assert.Equal(t, map[string]any{"ok": false, "error": tt.want}, got)
			calls := srv.Calls("")
			require.Len(t, calls, 1, "refused calls are recorded")
			assert.Equal(t, tt.want, calls[0].Error)
			assert.Empty(t, srv.Messages(""))
		})
	}
}

func TestGetWithQuery(t *testing.T) {
	t.Parallel()
	srv, _ := newTestServer(t)

	status, got := rawCall(t, srv, http.MethodGet, "users.info?user=U2", "", "")

	assert.Equal(t, http.StatusOK, status)
	assert.Equal(t, true, got["ok"])
	assert.Equal(t, "U2", got["user"].(map[string]any)["id"])
}

func TestHandlerMountedElsewhere(t *testing.T) {
	t.Parallel()
	srv, _ := newTestServer(t)
	other := httptest.NewServer(srv.Handler())
	t.Cleanup(other.Close)
	api := slack.New(DefaultToken, slack.OptionAPIURL(other.URL+"/api/"))

	_, _, err := api.PostMessageContext(t.Context(), "C1", slack.MsgOptionText("via the handler", false))

	require.NoError(t, err)
	require.Len(t, srv.Messages("C1"), 1, "the handler serves the same workspace")
}

func TestTimestamps(t *testing.T) {
	t.Parallel()
	tests := map[string]struct {
		in     string
		want   int64
		wantOK bool
	}{
		"full":           {in: "1700000000.000100", want: 1_700_000_000_000_100, wantOK: true},
		"whole seconds":  {in: "1700000000", want: 1_700_000_000_000_000, wantOK: true},
		"short fraction": {in: "1700000000.5", want: 1_700_000_000_500_000, wantOK: true},
		"long fraction":  {in: "1700000000.0001009", want: 1_700_000_000_000_100, wantOK: true},
		"zero":           {in: "0", want: 0, wantOK: true},
		"empty":          {in: ""},
		"word":           {in: "now"},
		"negative":       {in: "-1.000000"},
		"bad fraction":   {in: "1.x"},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			got, ok := parseTS(tt.in)
			assert.Equal(t, tt.wantOK, ok)
			assert.Equal(t, tt.want, got)
			if ok && strings.Count(tt.in, ".") == 1 && len(tt.in) == len("1700000000.000100") {
				assert.Equal(t, tt.in, formatTS(got), "round trip")
			}
		})
	}
}
