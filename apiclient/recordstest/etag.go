package recordstest

import (
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"net/http/httptest"
	"strings"
)

// WithETags makes the server validate its GET answers as most real
// services do (the web framework or a CDN in front of them): every 200 to
// a GET carries a strong ETag, a hash of the body, so it changes exactly
// when the representation does (RFC 9110 §8.8.3); a GET whose
// If-None-Match names the current tag, or is "*", gets 304 Not Modified
// with the ETag and no content (RFC 9110 §13.1.2, §15.4.5). Each page of
// a list has its own tag: a tag says nothing about the other pages. Off
// by default.
func WithETags() Option { return func(c *config) { c.etags = true } }

// etags serves next's GET answers with ETags and 304s (see WithETags). The
// answer is rendered in full every time, as a real service does: a 304
// saves the transfer and the client's decoding, not the server's work.
func etags(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet {
			next.ServeHTTP(w, r)
			return
		}
		rec := httptest.NewRecorder()
		next.ServeHTTP(rec, r)
		h := w.Header()
		for k, v := range rec.Header() {
			h[k] = v
		}
		if rec.Code != http.StatusOK {
			w.WriteHeader(rec.Code)
			_, _ = w.Write(rec.Body.Bytes())
			return
		}
		sum := sha256.Sum256(rec.Body.Bytes())
		tag := `"` + hex.EncodeToString(sum[:16]) + `"`
		h.Set("ETag", tag)
		if noneMatch(r.Header.Get("If-None-Match"), tag) {
			// A 304 carries no content and no representation metadata
			// beyond the validators (RFC 9110 §15.4.5).
			h.Del("Content-Type")
			h.Del("Content-Length")
			h.Del("Content-Range")
			w.WriteHeader(http.StatusNotModified)
			return
		}
		w.WriteHeader(http.StatusOK)
		_, _ = w.Write(rec.Body.Bytes())
	})
}

// noneMatch reports whether the If-None-Match field value inm names tag:
// "*", or a list of entity tags compared weakly (a W/ prefix ignored), as
// RFC 9110 §13.1.2 requires for this field.
func noneMatch(inm, tag string) bool {
	if strings.TrimSpace(inm) == "*" {
		return true
	}
	for t := range strings.SplitSeq(inm, ",") {
		if strings.TrimPrefix(strings.TrimSpace(t), "W/") == tag {
			return true
		}
	}
	return false
}
