package redact_test

import (
	"errors"
	"fmt"
	"net/url"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/recordsbot/recordsbot/internal/redact"
)

func TestURLHidesCredentials(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"https://user:pass@cal.example.org/h.ics":        "https://…@cal.example.org/h.ics",
		"https://cal.example.org/h.ics?token=s3cret&x=1": "https://cal.example.org/h.ics?token=…&x=…",
		"https://cal.example.org/h.ics":                  "https://cal.example.org/h.ics",
		"https://cal.example.org/h.ics#frag":             "https://cal.example.org/h.ics",
		"http://a:b@[::1]:80%zz/?token=x":                "http://…@[::1]:80%zz/?…",
	} {
		got := redact.URL(in)
		assert.Equal(t, want, got, in)
		assert.NotContains(t, got, "pass")
		assert.NotContains(t, got, "s3cret")
	}
}

func TestErrorHidesTheURL(t *testing.T) {
	t.Parallel()
	raw := "https://user:pass@cal.example.org/h.ics?token=s3cret"
	got := redact.Error(errors.New(`Get "`+raw+`": dial tcp: timeout`), raw)
	assert.NotContains(t, got, "pass")
	assert.NotContains(t, got, "s3cret")
	assert.Contains(t, got, "cal.example.org/h.ics")
}

func TestErrorHidesTheURLAsNetHTTPQuotesIt(t *testing.T) {
	t.Parallel()
	raw := "http://cal:hunter2@127.0.0.1:1/h.ics?token=s3cret"
	got := redact.Error(fmt.Errorf("fetch: %w", &url.Error{Op: "Get", URL: "http://cal:***@127.0.0.1:1/h.ics?token=s3cret", Err: errors.New("connection refused")}), raw)
	assert.Equal(t, `fetch: Get "http://…@127.0.0.1:1/h.ics?token=…": connection refused`, got)
}
