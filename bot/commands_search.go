package bot

import (
	"context"
	"strings"
	"unicode"

	"github.com/recordsbot/recordsbot/apiclient"
	"github.com/recordsbot/recordsbot/blocks"
	"github.com/recordsbot/recordsbot/internal/lang"
	"github.com/recordsbot/recordsbot/minutes"
	"github.com/recordsbot/recordsbot/store"
)

// MinutesSearch is the minutes search index; *store.Store implements it.
// NewServer finds it on Deps.Store when the store has it.
type MinutesSearch interface {
	SearchMinutes(ctx context.Context, q store.MinutesQuery, offset, limit int) (store.MinutesPage, error)
}

// searchPageSize is the results a search answer shows at once: each takes
// two blocks and a few hundred characters.
const searchPageSize = 5

// searchTyped returns what follows `search` in `/minutes search <words>`;
// ok is false when the command is something else.
func searchTyped(t commandText) (typed string, ok bool) {
	if len(t.Words) == 0 || !strings.EqualFold(t.Words[0].Text, "search") {
		return "", false
	}
	_, rest, _ := strings.Cut(t.Plain, t.Words[0].Text)
	return strings.TrimSpace(rest), true
}

// commandSearch answers `/minutes search <words>`.
func (mu *minutesUI) commandSearch(ctx context.Context, typed string) *reply {
	return mu.searchPage(ctx, typed, 0)
}

// searchPage is the answer to a search, results from offset on.
func (mu *minutesUI) searchPage(ctx context.Context, typed string, offset int) *reply {
	msg, err := mu.searchMessage(ctx, typed, offset)
	if err != nil {
		return notice(mu.say(ctx, "search minutes", err))
	}
	return ephemeral(msg)
}

// searchMessage runs a search and builds its message; a query with no
// words is answered with how to search.
func (mu *minutesUI) searchMessage(ctx context.Context, typed string, offset int) (blocks.Message, error) {
	if mu.search == nil {
		return blocks.Notice(lang.FromContext(ctx).T("search.no_store")), nil
	}
	q := minutes.ParseQuery(typed)
	if minutes.QueryEmpty(q) {
		return blocks.Notice(lang.FromContext(ctx).T("search.how")), nil
	}
	v, err := mu.searchView(ctx, q, typed, offset)
	if err != nil {
		return blocks.Message{}, err
	}
	return blocks.SearchResults(v), nil
}

// searchView runs the search q (typed as typed) for the results from
// offset on. Errors: the store's (store.ErrUnavailable when it is down).
func (mu *minutesUI) searchView(ctx context.Context, q store.MinutesQuery, typed string, offset int) (blocks.SearchView, error) {
	page, err := mu.search.SearchMinutes(ctx, q, offset, searchPageSize)
	if err != nil {
		return blocks.SearchView{}, err
	}
	typed = strings.TrimFunc(typed, unicode.IsSpace)
	v := blocks.SearchView{Query: typed, Quoted: minutes.QuoteQuery(typed), Offset: offset, More: page.More,
		ByDate: len(q.Words)+len(q.Phrases) == 0}
	for _, h := range page.Hits {
		v.Results = append(v.Results, blocks.SearchResult{
			MeetingID: h.MeetingID, Title: h.Title, Committee: h.Committee,
			Date: h.Date, DateHasTime: h.DateHasTime, Draft: h.Draft,
			URL: mu.svc.URL(h.MeetingID, &apiclient.Minutes{URL: h.URL}), Snippet: snippetParts(h.Snippet),
		})
	}
	return v, nil
}

// clickSearchMore answers the More button of search results by replacing
// them with the next page.
func (c *clicks) clickSearchMore(ctx context.Context, in *interaction, value string) {
	offset, typed, ok := blocks.ParseSearchMoreValue(value)
	if ok && in.View.Type == "modal" {
		c.updateSearchModal(ctx, in, c.mins.searchModal(ctx, typed, offset))
		return
	}
	if !ok {
		c.tell(ctx, in, notice(staleButton(ctx)))
		return
	}
	c.redraw(ctx, in, c.mins.searchPage(ctx, typed, offset))
}

func snippetParts(in []store.SnippetPart) []blocks.SearchPart {
	out := make([]blocks.SearchPart, len(in))
	for i, p := range in {
		out[i] = blocks.SearchPart{Text: p.Text, Match: p.Match}
	}
	return out
}
