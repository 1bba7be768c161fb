package bot

import (
	"context"

	"github.com/recordsbot/recordsbot/bot/minutespage"
	"github.com/recordsbot/recordsbot/minutes"
)

// archiveSearchSize is how many results the archive's search page lists.
const archiveSearchSize = 20

// archiveSearch answers the public archive's search box from the same
// index as /minutes search: what was typed is read by minutes.ParseQuery
// (words, "phrases", committee:), never passed on as query syntax. The
// index holds only minutes that may be shown.
func archiveSearch(idx MinutesSearch) minutespage.Search {
	return func(ctx context.Context, typed string) ([]minutespage.SearchHit, error) {
		q := minutes.ParseQuery(typed)
		if minutes.QueryEmpty(q) {
			return nil, nil
		}
		page, err := idx.SearchMinutes(ctx, q, 0, archiveSearchSize)
		if err != nil {
			return nil, err
		}
		hits := make([]minutespage.SearchHit, 0, len(page.Hits))
		for _, h := range page.Hits {
			hit := minutespage.SearchHit{
				MeetingID: h.MeetingID, Title: h.Title, Committee: h.Committee,
				Date: h.Date, DateHasTime: h.DateHasTime, Draft: h.Draft,
			}
			for _, p := range h.Snippet {
				hit.Snippet = append(hit.Snippet, minutespage.SnippetPart{Text: p.Text, Match: p.Match})
			}
			hits = append(hits, hit)
		}
		return hits, nil
	}
}
