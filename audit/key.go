package audit

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// MinKeyLength is the shortest AUDIT_KEY accepted: 32 characters, such
// as `openssl rand -hex 32` gives 64 of.
const MinKeyLength = 32

// keyedPrefix starts a keyed entry's Hash: an entry sealed with a Key
// says so in its hash, so a chain written before AUDIT_KEY was set still
// verifies, and an unkeyed entry after a keyed one is refused.
const keyedPrefix = "hmac-sha256:"

// Key is the audit trail's secret (AUDIT_KEY): every entry's hash is an
// HMAC under it, so someone who can write the database but does not hold
// the key cannot rewrite an entry and re-hash the chain after it. It is
// kept outside the database. The zero Key seals entries with plain
// SHA-256 (tests, and entries written before the key was set).
type Key struct{ b []byte }

// ErrKeyNeeded is returned by a Chain without a Key that meets a keyed
// entry: it cannot tell whether that entry is intact.
var ErrKeyNeeded = errors.New("the trail is keyed: AUDIT_KEY is needed to verify it")

// ParseKey reads AUDIT_KEY. Errors: a key shorter than MinKeyLength
// characters (spaces around it are not part of it).
func ParseKey(s string) (Key, error) {
	s = strings.TrimSpace(s)
	if len(s) < MinKeyLength {
		return Key{}, fmt.Errorf("must be a secret of at least %d characters (openssl rand -hex 32), got %d", MinKeyLength, len(s))
	}
	return Key{b: []byte(s)}, nil
}

// IsZero reports whether k is the zero Key.
func (k Key) IsZero() bool { return len(k.b) == 0 }

// Sum is e's keyed hash: "hmac-sha256:" and the hex HMAC-SHA256 of its
// canonical encoding under k. The zero Key gives the plain Sum.
func (k Key) Sum(e *Entry) string {
	if k.IsZero() {
		return Sum(e)
	}
	var buf [256]byte
	m := hmac.New(sha256.New, k.b)
	m.Write(Canonical(buf[:0], e))
	return keyedPrefix + hex.EncodeToString(m.Sum(nil))
}

// keyed reports whether hash was made with a Key.
func keyed(hash string) bool { return strings.HasPrefix(hash, keyedPrefix) }

// anchorTag starts an anchor's text, and its signature's input.
const anchorTag = "recordsbot-audit-head"

// Anchor is the chain's head as the daily verify found it, signed with
// the Key and published where the database cannot rewrite it (the logs,
// AUDIT_CHANNEL): a trail cut, emptied or rewritten after it no longer
// holds that entry with that hash (Chain.Anchor).
type Anchor struct {
	Seq  int64     // the head's sequence number; 0 for an empty trail
	Hash string    // the head's hash
	At   time.Time // when it was the head
}

// String is a's text without a signature (for messages).
func (a Anchor) String() string {
	return fmt.Sprintf("entry %d (%s) at %s", a.Seq, a.Hash, a.At.UTC().Format(time.RFC3339))
}

func (a Anchor) body() string {
	return fmt.Sprintf("%s seq=%d hash=%s at=%s", anchorTag, a.Seq, a.Hash, a.At.UTC().Format(time.RFC3339))
}

// Sign is a's text signed with k: one line, to publish and to hand back
// to `recordsbot audit verify --anchor`. The zero Key signs nothing and
// gives "".
func (k Key) Sign(a Anchor) string {
	if k.IsZero() {
		return ""
	}
	m := hmac.New(sha256.New, k.b)
	m.Write([]byte(a.body()))
	return a.body() + " sig=" + hex.EncodeToString(m.Sum(nil))
}

// ParseAnchor reads an anchor's text (Sign) and checks its signature
// with k. Errors: text that is not an anchor; a signature that is not
// k's (forged, altered, or signed with another key).
func (k Key) ParseAnchor(s string) (Anchor, error) {
	fields := strings.Fields(strings.TrimSpace(s))
	if len(fields) != 5 || fields[0] != anchorTag {
		return Anchor{}, fmt.Errorf("not an audit head anchor (%s seq=… hash=… at=… sig=…)", anchorTag)
	}
	var a Anchor
	var sig string
	for _, f := range fields[1:] {
		name, v, _ := strings.Cut(f, "=")
		var err error
		switch name {
		case "seq":
			a.Seq, err = strconv.ParseInt(v, 10, 64)
		case "hash":
			a.Hash = v
		case "at":
			a.At, err = time.Parse(time.RFC3339, v)
		case "sig":
			sig = v
		default:
			err = fmt.Errorf("unknown field %q", name)
		}
		if err != nil {
			return Anchor{}, fmt.Errorf("not an audit head anchor: %s: %w", name, err)
		}
	}
	if k.IsZero() {
		return Anchor{}, ErrKeyNeeded
	}
	if !hmac.Equal([]byte(k.Sign(a)), []byte(a.body()+" sig="+sig)) {
		return Anchor{}, errors.New("the anchor's signature is not AUDIT_KEY's: it was altered, or signed with another key")
	}
	return a, nil
}
