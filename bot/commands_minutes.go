package bot

import (
	"context"
	"errors"
	"fmt"
	"html"
	"net/url"
	"strings"
	"sync"

	"github.com/microcosm-cc/bluemonday"

	"github.com/recordsbot/recordsbot/apiclient"
	"github.com/recordsbot/recordsbot/blocks"
)

const (
	// minutesWalk bounds how many meetings "latest minutes" looks at.
	minutesWalk = 30
	// minutesBatch is how many minutes are fetched at once during the walk:
	// enough to hide latency, few enough not to burst the records service.
	minutesBatch = 4
	// maxMeetingPages bounds how many pages of meetings one answer reads.
	maxMeetingPages = 10
)

func (mu *minutesUI) commandMinutes(ctx context.Context, cmd command) *reply {
	arg := cmd.Args.argument()
	if strings.EqualFold(arg, "help") {
		return ephemeral(blocks.Help("/minutes", ""))
	}
	if r := mu.follow.followCommand(ctx, cmd); r != nil {
		return r
	}
	if arg != "" {
		m, err := mu.records.GetMeeting(ctx, arg)
		switch {
		case err == nil:
			min, err := mu.records.GetMinutes(ctx, m.ID)
			if isNotFound(err) {
				return notice(fmt.Sprintf(":page_facing_up: *%s* has no published minutes yet.", blocks.Escape(m.Name())))
			}
			if err != nil {
				return notice(mu.say(ctx, "get minutes", err))
			}
			return mu.minutesReply(m, min, "")
		case !isNotFound(err):
			return notice(mu.say(ctx, "get meeting", err))
		}
		// Not a meeting ID or reference: a committee name.
	}
	m, min, seen, err := mu.latestMinutes(ctx, arg)
	if err != nil {
		return notice(mu.say(ctx, "latest minutes", err))
	}
	if m == nil {
		switch {
		case arg != "" && seen == 0:
			return ephemeral(blocks.Help("/minutes", fmt.Sprintf("I found no meeting or committee called `%s`.", blocks.EscapeTyped(arg))))
		case arg != "":
			return notice(fmt.Sprintf(":page_facing_up: No minutes have been published for *%s* in its last %d meetings.", blocks.EscapeTyped(arg), seen))
		}
		return notice(fmt.Sprintf(":page_facing_up: No minutes have been published in the last %d meetings.", seen))
	}
	return mu.minutesReply(m, min, "")
}

func (mu *minutesUI) minutesReply(m *apiclient.Meeting, min *apiclient.Minutes, sharedBy string) *reply {
	v := mu.minutesView(m, min)
	v.Shareable = sharedBy == ""
	v.SharedBy = sharedBy
	return ephemeral(blocks.Minutes(v))
}

// committeeMatches reports whether committee is what the user typed:
// case-insensitive, a prefix is enough ("fin" finds "Finance").
func committeeMatches(committee, typed string) bool {
	if typed == "" {
		return true
	}
	return strings.HasPrefix(strings.ToLower(committee), strings.ToLower(typed))
}

// latestMinutes walks meetings newest first and returns the first with
// visible minutes, fetching minutes a few at a time. seen counts the
// meetings (of the committee) it looked at. Meetings in the future are
// skipped: they have no minutes yet.
func (mu *minutesUI) latestMinutes(ctx context.Context, committee string) (*apiclient.Meeting, *apiclient.Minutes, int, error) {
	now := mu.now()
	next, seen := "", 0
	for page := 0; page < maxMeetingPages && seen < minutesWalk; page++ {
		p, err := mu.records.ListMeetings(ctx, &apiclient.ListMeetingsOptions{Next: next})
		if err != nil {
			return nil, nil, seen, err
		}
		var batch []*apiclient.Meeting
		for i := range p.Meetings {
			m := &p.Meetings[i]
			if !committeeMatches(m.Committee, committee) || m.Date.After(now) {
				continue
			}
			if seen++; seen > minutesWalk {
				break
			}
			batch = append(batch, m)
		}
		for len(batch) > 0 {
			n := min(minutesBatch, len(batch))
			m, min, err := mu.firstMinutes(ctx, batch[:n])
			if m != nil || err != nil {
				return m, min, seen, err
			}
			batch = batch[n:]
		}
		if next = p.Next; next == "" {
			break
		}
	}
	return nil, nil, min(seen, minutesWalk), nil
}

// firstMinutes fetches the minutes of ms concurrently and returns the first
// meeting, in order, whose minutes are visible. An error other than "not
// found" for a meeting before that one is returned: the answer cannot be
// known to be the latest.
func (mu *minutesUI) firstMinutes(ctx context.Context, ms []*apiclient.Meeting) (*apiclient.Meeting, *apiclient.Minutes, error) {
	type result struct {
		min *apiclient.Minutes
		err error
	}
	results := make([]result, len(ms))
	var wg sync.WaitGroup
	for i, m := range ms {
		wg.Add(1)
		go func() {
			defer wg.Done()
			min, err := mu.records.GetMinutes(ctx, m.ID)
			results[i] = result{min, err}
		}()
	}
	wg.Wait()
	for i, r := range results {
		switch {
		case r.err == nil:
			return ms[i], r.min, nil
		case !errors.Is(r.err, apiclient.ErrNotFound):
			return nil, nil, fmt.Errorf("minutes of %s: %w", ms[i].ID, r.err)
		}
	}
	return nil, nil, nil
}

// minutesURL is where the full minutes can be read: the record's own public
// URL, else the bot's public page, else nothing.
func (mu *minutesUI) minutesURL(meetingID string, min *apiclient.Minutes) string {
	if min != nil && min.URL != "" {
		return min.URL
	}
	if mu.publicMinutes && mu.publicURL != "" {
		return mu.publicURL + "/minutes/" + url.PathEscape(meetingID)
	}
	return ""
}

// textPolicy strips every tag, for showing an HTML body as plain text.
var textPolicy = bluemonday.StrictPolicy()

func (mu *minutesUI) minutesView(m *apiclient.Meeting, min *apiclient.Minutes) blocks.MinutesView {
	body := min.Body
	if min.Format == apiclient.FormatHTML {
		// Block-level tags become line breaks before the tags go, so
		// paragraphs don't run together.
		r := strings.NewReplacer("</p>", "</p>\n", "<br>", "\n", "<br/>", "\n", "<br />", "\n", "</li>", "</li>\n", "</h1>", "</h1>\n", "</h2>", "</h2>\n", "</h3>", "</h3>\n")
		body = html.UnescapeString(textPolicy.Sanitize(r.Replace(body)))
	}
	date, hasTime := m.Date, m.DateHasTime
	if date.IsZero() {
		date, hasTime = min.Date, true
	}
	return blocks.MinutesView{
		MeetingID:   m.ID,
		Title:       m.Name(),
		Committee:   m.Committee,
		Date:        date,
		DateHasTime: hasTime,
		Draft:       min.Draft(),
		Body:        body,
		URL:         mu.minutesURL(m.ID, min),
	}
}
