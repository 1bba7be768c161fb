// Package topics is the topic-watch domain: a person or a channel
// following words across every committee ("library levy", "school
// transport"), told when they appear in a new agenda or in newly visible
// minutes. It knows no Slack package: the bot reads what people type and
// draws the answers, the watcher matches and posts.
//
// # What a watch is
//
// The words are the search's query language (minutes.ParseQuery): words
// that must all occur (stemmed), "phrases", -exclusions and
// committee:<name>. A person's watch is told in their DM with the bot; a
// channel's in the channel, under the rule that governs following a
// committee there (follows.Service.MayChange).
//
// # What is refused, and the limits
//
//   - No words (or exclusions or a committee alone: a committee alone is
//     what /minutes follow is for): ErrEmpty.
//   - More than MaxQueryRunes characters: ErrTooLong.
//   - Too broad: no word or phrase of at least three letters, or words
//     that match more than half of the minutes indexed once the index
//     holds at least broadMinDocs of them (a watch that hears of nearly
//     every meeting is a follow, not a topic): ErrTooBroad.
//   - More than Limits.PerPerson watches for a person, Limits.PerChannel
//     for a channel: store.ErrTopicLimit.
//
// # Matching, and what it costs
//
// Matching runs where the watcher already reads: minutes that became
// visible since its last pass (store.NewlyVisibleMinutes, whoever read
// them first), and the agendas of upcoming meetings. For each newly
// visible document, every watch is first screened in memory (Screen: each
// word's first letters must start a word of the text), and only the
// watches that pass are confirmed by the index on that one document
// (store.MatchMinutes, the search's own stemming). Agenda items, which are
// not indexed, are matched in memory (MatchText: case and accents folded,
// plurals and -ing/-ed endings set aside).
package topics

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/runes"
	"golang.org/x/text/transform"
	"golang.org/x/text/unicode/norm"

	"github.com/recordsbot/recordsbot/minutes"
	"github.com/recordsbot/recordsbot/store"
)

// MaxQueryRunes bounds what a watch may say: enough for a few words,
// phrases and a committee, short enough to show in a list.
const MaxQueryRunes = 200

// broadMinDocs is how many minutes the index must hold before "matches
// more than half" means anything.
const broadMinDocs = 20

// Limits are how many watches a person and a channel may keep.
type Limits struct {
	PerPerson, PerChannel int
}

// DefaultLimits are the limits the docs state: 10 watches a person, 10 a
// channel.
var DefaultLimits = Limits{PerPerson: 10, PerChannel: 10}

// Errors of Parse and Service.Add.
var (
	ErrEmpty    = errors.New("a topic needs words")
	ErrTooLong  = errors.New("a topic is too long")
	ErrTooBroad = errors.New("a topic is too broad")
	// ErrTooCommon is ErrTooBroad for words long enough that match more
	// than half of the minutes indexed ("the"): its answer cannot ask for
	// a longer word.
	ErrTooCommon = fmt.Errorf("%w: its words are in most minutes", ErrTooBroad)
)

// Query is a watch's words, parsed.
type Query struct {
	store.MinutesQuery
	// Typed is the text as typed, trimmed: what lists show.
	Typed string
	// screen are the first letters Screen looks for, one per word of
	// the words and phrases, read once here.
	screen []string
}

// Parse reads a watch's words. Errors: ErrEmpty, ErrTooLong, ErrTooBroad
// (no word or phrase of three letters or more).
func Parse(typed string) (Query, error) {
	typed = strings.Join(strings.Fields(typed), " ")
	if utf8.RuneCountInString(typed) > MaxQueryRunes {
		return Query{}, ErrTooLong
	}
	q := Query{MinutesQuery: minutes.ParseQuery(typed), Typed: typed}
	if len(q.Words)+len(q.Phrases) == 0 {
		return Query{}, ErrEmpty
	}
	long := false
	for _, t := range append(append([]string(nil), q.Words...), q.Phrases...) {
		for _, w := range tokens(t) {
			long = long || utf8.RuneCountInString(w) >= 3
			q.screen = append(q.screen, prefix(w, max(1, min(screenRunes, utf8.RuneCountInString(w)-1))))
		}
	}
	if !long {
		return Query{}, ErrTooBroad
	}
	return q, nil
}

// Store is what the domain keeps; *store.Store implements it (the bot
// hands in its audited wrapper, which records watches added and stopped).
type Store interface {
	AddTopicWatch(ctx context.Context, w store.TopicWatch, limit int) (store.TopicWatch, bool, error)
	StopTopicWatch(ctx context.Context, id, userID, channelID string) (store.TopicWatch, bool, error)
	TopicWatchesOf(ctx context.Context, userID, channelID string) ([]store.TopicWatch, error)
}

// Index answers how broad words are; *store.Store implements it.
type Index interface {
	MinutesIndexStats(ctx context.Context) (store.MinutesIndexStats, error)
	CountMinutesMatches(ctx context.Context, q store.MinutesQuery, limit int) (int, error)
}

// Service is the topic-watch domain over its store.
type Service struct {
	Store  Store
	Index  Index
	Limits Limits
}

// WithStore returns the service over st instead (the domain's limits and
// index kept), as follows.Service.WithStore: the bot hands in its store
// wrapped to write the audit trail.
func (s *Service) WithStore(st Store) *Service {
	c := *s
	c.Store = st
	return &c
}

// Owner is whose a watch is: a person (UserID) or a channel (ChannelID).
type Owner struct {
	UserID, ChannelID string
}

// Add starts a watch of typed for owner, made by who. existed: the owner
// already watched those words (the first watch is returned). The channel
// rule (who may add a channel's watch) is the caller's, as for follows.
// Errors: those of Parse; ErrTooCommon (broad); store.ErrTopicLimit; the
// store's.
func (s *Service) Add(ctx context.Context, owner Owner, by, typed string) (store.TopicWatch, bool, error) {
	q, err := Parse(typed)
	if err != nil {
		return store.TopicWatch{}, false, err
	}
	if err := s.broad(ctx, q); err != nil {
		return store.TopicWatch{}, false, err
	}
	limit := s.Limits.PerPerson
	if owner.ChannelID != "" {
		limit = s.Limits.PerChannel
	}
	return s.Store.AddTopicWatch(ctx, store.TopicWatch{UserID: owner.UserID, ChannelID: owner.ChannelID, Query: q.Typed, CreatedBy: by}, limit)
}

// broad refuses words that would match more than half of the minutes
// indexed, once there are broadMinDocs of them. An index that cannot be
// read lets the watch through: the limit is a kindness, not a guard.
func (s *Service) broad(ctx context.Context, q Query) error {
	if s.Index == nil {
		return nil
	}
	st, err := s.Index.MinutesIndexStats(ctx)
	if err != nil || st.Docs < broadMinDocs {
		return nil
	}
	half := st.Docs / 2
	n, err := s.Index.CountMinutesMatches(ctx, q.MinutesQuery, half+1)
	if err == nil && n > half {
		return ErrTooCommon
	}
	return nil
}

// Stop ends watch id of owner; ok is false when owner has no such watch
// (stopped already, or not theirs). Errors: the store's.
func (s *Service) Stop(ctx context.Context, owner Owner, id string) (store.TopicWatch, bool, error) {
	w, ok, err := s.Store.StopTopicWatch(ctx, id, owner.UserID, owner.ChannelID)
	if err != nil {
		return store.TopicWatch{}, false, fmt.Errorf("stop topic watch: %w", err)
	}
	return w, ok, nil
}

// Of lists owner's watches, oldest first. Errors: the store's.
func (s *Service) Of(ctx context.Context, owner Owner) ([]store.TopicWatch, error) {
	return s.Store.TopicWatchesOf(ctx, owner.UserID, owner.ChannelID)
}

// fold lower-cases s and takes its accents away, as the index does
// (unicode61 remove_diacritics, PostgreSQL's english configuration).
func fold(s string) string {
	t := transform.Chain(norm.NFD, runes.Remove(runes.In(unicode.Mn)), norm.NFC)
	out, _, err := transform.String(t, s)
	if err != nil {
		out = s
	}
	return strings.ToLower(out)
}

// tokens are the words of s as the index finds them: runs of letters and
// digits, folded.
func tokens(s string) []string {
	return strings.FieldsFunc(fold(s), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsNumber(r) })
}
