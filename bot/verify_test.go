package bot

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

// Slack's published example of request signing.
const (
	exampleSecret = "8f742231b10e8888abcd99yyyzzz85a5"
	exampleTS     = "1531420618"
	exampleBody   = "token=xyzz0WbapA4vBCDEFasx0q6G&team_id=T1DC2JH3J&team_domain=testteamnow&channel_id=G8PSS9T3V&channel_name=foobar&user_id=U2CERLKJA&user_name=roadrunner&command=%2Fwebhook-collect&text=&response_url=https%3A%2F%2Fhooks.slack.com%2Fcommands%2FT1DC2JH3J%2F397700885554%2F96rGlfmibIGlgcZRskXaIFfN&trigger_id=398738663015.47445629121.803a0bc887a14d10d2c447fce8b6703c"
	exampleSig    = "v0=a2114d57b48eac39b9ad189dd8316235a7b4a8d21a10bd27519666489c69b503"
)

func TestVerify(t *testing.T) {
	t.Parallel()
	at := time.Unix(1531420618, 0)
	hdr := func(ts, sig string) http.Header {
		h := http.Header{}
		if ts != "" {
			h.Set("X-Slack-Request-Timestamp", ts)
		}
		if sig != "" {
			h.Set("X-Slack-Signature", sig)
		}
		return h
	}
	tests := []struct {
		name   string
		header http.Header
		body   string
		secret string
		now    time.Time
		want   error
	}{
		{"slack's published example", hdr(exampleTS, exampleSig), exampleBody, exampleSecret, at, nil},
		{"four minutes later", hdr(exampleTS, exampleSig), exampleBody, exampleSecret, at.Add(4 * time.Minute), nil},
		{"clock four minutes behind", hdr(exampleTS, exampleSig), exampleBody, exampleSecret, at.Add(-4 * time.Minute), nil},
		{"six minutes later: replay", hdr(exampleTS, exampleSig), exampleBody, exampleSecret, at.Add(6 * time.Minute), ErrBadTimestamp},
		{"six minutes early", hdr(exampleTS, exampleSig), exampleBody, exampleSecret, at.Add(-6 * time.Minute), ErrBadTimestamp},
		{"body changed", hdr(exampleTS, exampleSig), exampleBody + "&x=1", exampleSecret, at, ErrBadSignature},
		{"other secret", hdr(exampleTS, exampleSig), exampleBody, "other", at, ErrBadSignature},
		{"same bytes in uppercase hex", hdr(exampleTS, "v0="+strings.ToUpper(exampleSig[3:])), exampleBody, exampleSecret, at, ErrBadSignature},
		{"one digit in uppercase", hdr(exampleTS, strings.Replace(exampleSig, "c", "C", 1)), exampleBody, exampleSecret, at, ErrBadSignature},
		{"flipped last digit", hdr(exampleTS, exampleSig[:len(exampleSig)-1]+"8"), exampleBody, exampleSecret, at, ErrBadSignature},
		{"timestamp changed", hdr("1531420619", exampleSig), exampleBody, exampleSecret, at, ErrBadSignature},
		{"no v0 prefix", hdr(exampleTS, exampleSig[3:]), exampleBody, exampleSecret, at, ErrBadSignature},
		{"v1 scheme", hdr(exampleTS, "v1="+exampleSig[3:]), exampleBody, exampleSecret, at, ErrBadSignature},
		{"not hex", hdr(exampleTS, "v0="+string(make([]byte, 64))), exampleBody, exampleSecret, at, ErrBadSignature},
		{"short", hdr(exampleTS, exampleSig[:20]), exampleBody, exampleSecret, at, ErrBadSignature},
		{"no signature", hdr(exampleTS, ""), exampleBody, exampleSecret, at, ErrMissingSignature},
		{"no timestamp", hdr("", exampleSig), exampleBody, exampleSecret, at, ErrMissingSignature},
		{"timestamp not a number", hdr("soon", exampleSig), exampleBody, exampleSecret, at, ErrBadTimestamp},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			assert.ErrorIs(t, Verify(tt.header, []byte(tt.body), tt.secret, tt.now), tt.want)
			if tt.want == nil {
				assert.NoError(t, Verify(tt.header, []byte(tt.body), tt.secret, tt.now))
			}
		})
	}
}

func FuzzVerify(f *testing.F) {
	f.Add(exampleTS, exampleSig, exampleBody, int64(1531420618))
	f.Add("", "", "", int64(0))
	f.Add("1531420618", "v0=zz", "a=b", int64(1531420618))
	f.Add(exampleTS, strings.Replace(exampleSig, "c", "C", 1), exampleBody, int64(1531420618)) // found by the fuzzer
	f.Fuzz(func(t *testing.T, ts, sig, body string, now int64) {
		h := http.Header{}
		h.Set("X-Slack-Request-Timestamp", ts)
		h.Set("X-Slack-Signature", sig)
		err := Verify(h, []byte(body), exampleSecret, time.Unix(now, 0))
		// Only the published triple (or a body that is the same bytes) may
		// pass: anything else the fuzzer finds would be a forgery.
		if err == nil && !(sig == exampleSig && body == exampleBody && ts == exampleTS) {
			t.Fatalf("forged request accepted: ts=%q sig=%q body=%q", ts, sig, body)
		}
	})
}
