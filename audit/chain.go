package audit

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strconv"
	"time"
)

// canonicalVersion starts every canonical encoding, so that a later
// change of fields is a new version rather than a different reading of
// the same bytes.
const canonicalVersion = "recordsbot-audit-1"

// Canonical appends e's canonical encoding to b: the version, then every
// field but Hash in a fixed order, each as a netstring ("<length>:<bytes>,"),
// so no field's content can be mistaken for another's. Time is its Unix
// milliseconds, as stored.
func Canonical(b []byte, e *Entry) []byte {
	b = netstring(b, canonicalVersion)
	b = netint(b, e.Seq)
	b = netint(b, e.Time.UnixMilli())
	for _, f := range [...]string{e.Actor, e.ActorRecords, string(e.Surface), string(e.Kind), e.Target, e.From, e.To, string(e.Outcome), e.RequestID, e.Prev} {
		b = netstring(b, f)
	}
	return b
}

func netstring(b []byte, s string) []byte {
	b = strconv.AppendInt(b, int64(len(s)), 10)
	b = append(b, ':')
	b = append(b, s...)
	return append(b, ',')
}

func netint(b []byte, v int64) []byte {
	var n [20]byte
	return netstring(b, string(strconv.AppendInt(n[:0], v, 10)))
}

// Sum is the hash of e: hex SHA-256 of its canonical encoding.
func Sum(e *Entry) string {
	var buf [256]byte
	h := sha256.Sum256(Canonical(buf[:0], e))
	return hex.EncodeToString(h[:])
}

// Seal sets e's place in the chain after head (nil for the first entry)
// and its Hash, keyed with k (k.Sum).
func Seal(e *Entry, head *Entry, k Key) {
	e.Seq, e.Prev = 1, ""
	if head != nil {
		e.Seq, e.Prev = head.Seq+1, head.Hash
	}
	e.Hash = k.Sum(e)
}

// BrokenError names the first entry where a chain does not verify.
type BrokenError struct {
	Seq    int64  // the entry's sequence number
	Reason string // what is wrong with it
}

func (e *BrokenError) Error() string {
	return fmt.Sprintf("audit entry %d: %s", e.Seq, e.Reason)
}

// Head is a verified chain's summary.
type Head struct {
	Entries int64  // how many entries were verified
	First   int64  // the first sequence number kept (1 unless pruned)
	Seq     int64  // the last entry's sequence number; 0 for an empty chain
	Hash    string // the last entry's hash
	// Unkeyed is how many entries, at the chain's start, were written
	// before AUDIT_KEY was set: hashed, not keyed (docs/audit.md).
	Unkeyed int64
}

func (h Head) String() string {
	if h.Entries == 0 {
		return "empty"
	}
	s := fmt.Sprintf("%d entries, %d to %d, head %s", h.Entries, h.First, h.Seq, h.Hash)
	if h.Unkeyed > 0 {
		s += fmt.Sprintf(" (the first %d written before AUDIT_KEY)", h.Unkeyed)
	}
	return s
}

// Chain verifies a chain fed to it in sequence order, one entry at a
// time, holding only the entry before: a chain of any length is verified
// in constant memory. The zero Chain is ready, for a chain without a key.
type Chain struct {
	// Key checks keyed entries; without it a keyed entry is ErrKeyNeeded.
	// Entries written before the key (plain SHA-256) are accepted only
	// at the chain's start: after a keyed entry, an unkeyed one was
	// written by someone without the key.
	Key Key
	// Anchor, when set, is a head the chain had (Key.ParseAnchor): the
	// chain must still hold that entry with that hash, or have pruned
	// past it with a checkpoint.
	Anchor *Anchor

	n          int64
	unkeyed    int64
	first      Entry // Seq and Prev of the first entry
	last       Entry // Seq and Hash of the entry before
	checkpoint *Entry
	broken     error
}

// Add checks e against the entry before. The error (a *BrokenError) names
// the first entry that was altered, or follows a removed or reordered one;
// after it, Add returns the same error.
func (c *Chain) Add(e *Entry) error {
	if c.broken != nil {
		return c.broken
	}
	c.broken = c.check(e)
	if c.broken != nil {
		return c.broken
	}
	if c.n == 0 {
		c.first = Entry{Seq: e.Seq, Prev: e.Prev}
	}
	if !keyed(e.Hash) {
		c.unkeyed++
	}
	c.n++
	c.last = Entry{Seq: e.Seq, Hash: e.Hash}
	if e.Kind == Checkpoint {
		cp := *e
		c.checkpoint = &cp
	}
	return nil
}

func (c *Chain) check(e *Entry) error {
	switch {
	case !keyed(e.Hash):
		if c.n > c.unkeyed {
			return &BrokenError{Seq: e.Seq, Reason: "not keyed, after keyed entries: written by someone without AUDIT_KEY"}
		}
		if Sum(e) != e.Hash {
			return &BrokenError{Seq: e.Seq, Reason: "altered: its content does not match its hash"}
		}
	case c.Key.IsZero():
		return fmt.Errorf("audit entry %d: %w", e.Seq, ErrKeyNeeded)
	case !hmac.Equal([]byte(c.Key.Sum(e)), []byte(e.Hash)):
		return &BrokenError{Seq: e.Seq, Reason: "altered: its content does not match its keyed hash (or AUDIT_KEY is not the key it was written with)"}
	}
	if a := c.Anchor; a != nil && e.Seq == a.Seq && e.Hash != a.Hash {
		return &BrokenError{Seq: e.Seq, Reason: fmt.Sprintf("replaced: the anchored head of %s had hash %s", a.At.UTC().Format(time.RFC3339), a.Hash)}
	}
	if c.n == 0 {
		return nil // the start is checked by Done, against the latest checkpoint
	}
	switch {
	case e.Seq <= c.last.Seq:
		return &BrokenError{Seq: e.Seq, Reason: fmt.Sprintf("out of order: it comes after entry %d", c.last.Seq)}
	case e.Seq != c.last.Seq+1:
		return &BrokenError{Seq: e.Seq, Reason: fmt.Sprintf("out of place: entry %d should come before it (removed or reordered)", c.last.Seq+1)}
	case e.Prev != c.last.Hash:
		return &BrokenError{Seq: e.Seq, Reason: fmt.Sprintf("does not follow entry %d: that entry was altered or replaced, or the two reordered", c.last.Seq)}
	}
	return nil
}

// Done ends the walk: the chain must start at entry 1, or where its
// latest checkpoint says pruning left it. Errors: the first *BrokenError.
func (c *Chain) Done() (Head, error) {
	h := Head{Entries: c.n, First: c.first.Seq, Seq: c.last.Seq, Hash: c.last.Hash, Unkeyed: c.unkeyed}
	if c.broken != nil {
		return h, c.broken
	}
	if a := c.Anchor; a != nil && c.last.Seq < a.Seq {
		return h, &BrokenError{Seq: c.last.Seq + 1, Reason: fmt.Sprintf("removed: the trail ends at entry %d, but its head was entry %d at %s (the anchor)",
			c.last.Seq, a.Seq, a.At.UTC().Format(time.RFC3339))}
	}
	if c.n == 0 {
		return h, nil
	}
	if c.first.Seq == 1 && c.first.Prev == "" {
		return h, nil
	}
	cp := c.checkpoint
	if cp == nil {
		return h, &BrokenError{Seq: c.first.Seq, Reason: fmt.Sprintf("the chain starts here, with no checkpoint saying entries 1 to %d were pruned", c.first.Seq-1)}
	}
	if cp.Target != strconv.FormatInt(c.first.Seq, 10) || cp.From != c.first.Prev {
		return h, &BrokenError{Seq: c.first.Seq, Reason: fmt.Sprintf("the chain starts here, but checkpoint %d says it starts at entry %s: entries were removed", cp.Seq, cp.Target)}
	}
	return h, nil
}

// Verify checks a whole chain, in sequence order, keyed with k (see
// Chain).
func Verify(entries []Entry, k Key) (Head, error) {
	c := Chain{Key: k}
	for i := range entries {
		if err := c.Add(&entries[i]); err != nil {
			return Head{}, err
		}
	}
	return c.Done()
}

// NewCheckpoint is the entry pruning appends: the chain now starts at
// entry first, whose Prev is from; pruned entries were deleted.
func NewCheckpoint(first int64, from string, pruned int64) Entry {
	return Entry{Surface: System, Kind: Checkpoint, Target: strconv.FormatInt(first, 10), From: from,
		To: strconv.FormatInt(pruned, 10) + " pruned", Outcome: Done}
}
