package minutes

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"time"
)

// The archive's cursor (GET /minutes?after=) is public: anyone can write
// one into an address. Were it the records' next-page token, which the
// bot fetches with its API key, a reader could point the key at any path
// of the records host; so only the bot can make one: the position (the records' own next-page
// token as the records service gave it, and how many of that page's
// meetings were shown), an expiry, and an HMAC over both and the
// committee whose list it continues. A cursor that does not verify, is
// too long or has expired is ErrBadCursor before anything is read.

// CursorLifetime is how long an archive cursor is honoured after the page
// that made it: long enough to read an archive at leisure or come back to
// a bookmarked later page the same day, short enough that a leaked or
// crawled cursor goes stale. An expired one answers 404; the first page
// needs none.
const CursorLifetime = 24 * time.Hour

// maxCursorLen bounds a cursor as typed, checked before it is decoded: a
// longer one is no cursor of ours (a records token so long that its cursor
// would be longer is not offered as a next page).
const maxCursorLen = 1024

// cursorMACLen is how much of the HMAC-SHA256 a cursor carries: 128 bits,
// far beyond guessing within a cursor's lifetime.
const cursorMACLen = 16

// cursorVersion is the first byte of every cursor, so a later format can
// be told apart.
const cursorVersion = 1

// CursorKey derives the archive's cursor key from secret (RECORDS_API_KEY).
// It is derived in this one place, from a secret every replica that serves
// the archive already has and shares, so a cursor one replica made is
// accepted by the others behind the same address; the derivation keeps the
// API key itself out of any MAC a reader sees. Rotating the secret makes
// outstanding cursors 404, which costs a reader a click back to the first
// page. An empty secret gives nil (New then picks a random key: cursors
// hold within one process).
func CursorKey(secret string) []byte {
	if secret == "" {
		return nil
	}
	m := hmac.New(sha256.New, []byte(secret))
	m.Write([]byte("recordsbot minutes archive cursor v1"))
	return m.Sum(nil)
}

// cursorSealer makes and opens archive cursors with one key.
type cursorSealer struct{ key []byte }

// newCursorSealer uses key, or a random one when key is empty.
func newCursorSealer(key []byte) cursorSealer {
	if len(key) == 0 {
		// 128 bits or more from crypto/rand, and unlike rand.Read no
		// error result to drop (Read never returns one since Go 1.24).
		key = []byte(rand.Text())
	}
	return cursorSealer{key: key}
}

// mac is the cursor's MAC of payload for the list of committee (its
// CommitteeKey, "" for all).
func (cs cursorSealer) mac(payload []byte, committee string) []byte {
	m := hmac.New(sha256.New, cs.key)
	m.Write([]byte(committee))
	m.Write([]byte{0})
	m.Write(payload)
	return m.Sum(nil)[:cursorMACLen]
}

// seal returns the cursor of c in the list of committee, valid for
// CursorLifetime from now; "" for the first page, and for a position too
// long to carry.
func (cs cursorSealer) seal(c archiveCursor, committee string, now time.Time) string {
	if c == (archiveCursor{}) || c.Skip < 0 {
		return ""
	}
	b := make([]byte, 0, 1+8+binary.MaxVarintLen64+len(c.Next)+cursorMACLen)
	b = append(b, cursorVersion)
	b = binary.BigEndian.AppendUint64(b, uint64(now.Add(CursorLifetime).Unix()))
	b = binary.AppendUvarint(b, uint64(c.Skip))
	b = append(b, c.Next...)
	b = append(b, cs.mac(b, committee)...)
	out := base64.RawURLEncoding.EncodeToString(b)
	if len(out) > maxCursorLen {
		return ""
	}
	return out
}

// maxSkip bounds a cursor's skip: no records page is longer.
const maxSkip = 10_000

// open returns the position s names in the list of committee, checking
// its MAC, its expiry (against now) and its bounds before anything else
// is read of it. "" is the first page. Errors: ErrBadCursor.
func (cs cursorSealer) open(s, committee string, now time.Time) (archiveCursor, error) {
	if s == "" {
		return archiveCursor{}, nil
	}
	if len(s) > maxCursorLen {
		return archiveCursor{}, ErrBadCursor
	}
	b, err := base64.RawURLEncoding.DecodeString(s)
	if err != nil || len(b) < 1+8+1+cursorMACLen {
		return archiveCursor{}, ErrBadCursor
	}
	payload, sum := b[:len(b)-cursorMACLen], b[len(b)-cursorMACLen:]
	if !hmac.Equal(sum, cs.mac(payload, committee)) || payload[0] != cursorVersion {
		return archiveCursor{}, ErrBadCursor
	}
	exp := int64(binary.BigEndian.Uint64(payload[1:9]))
	if exp < 0 || now.Unix() >= exp {
		return archiveCursor{}, ErrBadCursor
	}
	skip, n := binary.Uvarint(payload[9:])
	if n <= 0 || skip > maxSkip {
		return archiveCursor{}, ErrBadCursor
	}
	return archiveCursor{Next: string(payload[9+n:]), Skip: int(skip)}, nil
}
