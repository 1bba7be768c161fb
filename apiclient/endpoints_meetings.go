package apiclient

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
)

// ListMeetings returns one page of meetings, newest first as the server
// orders them. A nil opts, or an empty opts.Next, starts at the first page;
// pass the previous page's Next to continue. Next is empty on the last page
// (also when the server's next link points back at the same page). When the
// server signals more meetings that the client cannot reach (a next link
// off the records API host, a total beyond the last page), Truncated is
// set; Total is the server's count when it gave one.
//
// Errors: ErrBadRequest for an opts.Next this client did not produce
// (nothing is sent), ErrUnauthorized, ErrForbidden (scope meetings:read),
// ErrRateLimited, ErrUnavailable, ErrInvalidResponse.
func (c *Client) ListMeetings(ctx context.Context, opts *ListMeetingsOptions) (*MeetingPage, error) {
	page, _, err := c.listMeetings(ctx, opts)
	return page, err
}

func (c *Client) listMeetings(ctx context.Context, opts *ListMeetingsOptions) (*MeetingPage, listInfo, error) {
	ep := endpoint{http.MethodGet, "/meetings", scopeMeetingsRead}
	var info listInfo
	ref := "meetings"
	first := opts == nil || opts.Next == ""
	if !first {
		u, err := c.tokenURL(opts.Next)
		if err != nil {
			return nil, info, c.newError(ep, 0, ErrBadRequest, "invalid next page token", err)
		}
		ref = u.String()
	}
	req, err := c.newRequest(ctx, http.MethodGet, ref, nil)
	if err != nil {
		return nil, info, c.newError(ep, 0, ErrInvalidResponse, "", err)
	}
	page := &MeetingPage{}
	err = c.do(req, ep, func(resp *http.Response, body []byte) error {
		d := c.getDecoder()
		defer c.putDecoder(d, len(body))
		ms, n, pf, err := decodeList(d, body, "meetings", page.Meetings[:0], -1, decodeMeeting)
		if err != nil {
			return err
		}
		page.Meetings = ms
		pr, err := c.nextPage(resp, pf, n)
		if err != nil {
			return err
		}
		info = listInfo{envelope: d.lastEnvelope, scheme: pr.scheme, pages: 1}
		if pr.total >= 0 {
			page.Total = int(min(pr.total, int64(maxInt)))
		}
		switch {
		case pr.stuck != "":
			page.Truncated, page.TruncatedReason = true, pr.stuck
		case pr.next != nil && pr.next.String() != resp.Request.URL.String():
			page.Next = pr.next.RequestURI()
		case pr.next == nil && first && pr.total > int64(n):
			// Only the first page can tell: a last page is short anyway.
			page.Truncated, page.TruncatedReason = true, fmt.Sprintf("the server reports %d meetings but sent %d and no way to the next page", pr.total, n)
		}
		return nil
	})
	if err != nil {
		return nil, info, err
	}
	return page, info, nil
}

// GetMeeting returns one meeting with its agenda. When the meeting is
// wrapped ({"meeting": {...}}) and its agenda sits beside it in the
// envelope, that agenda is used; a missing id is filled with the one asked
// for.
//
// Errors: ErrNotFound (also for an empty id, "." or ".."), ErrUnauthorized,
// ErrForbidden (scope meetings:read), ErrRateLimited, ErrUnavailable,
// ErrInvalidResponse, ErrBadRequest.
func (c *Client) GetMeeting(ctx context.Context, id string) (*Meeting, error) {
	ep := endpoint{http.MethodGet, "/meetings/{id}", scopeMeetingsRead}
	if err := c.checkID(ep, id); err != nil {
		return nil, err
	}
	req, err := c.newRequest(ctx, http.MethodGet, "meetings/"+url.PathEscape(id), nil)
	if err != nil {
		return nil, c.newError(ep, 0, ErrInvalidResponse, "", err)
	}
	m := &Meeting{}
	err = c.do(req, ep, func(_ *http.Response, body []byte) error {
		*m = Meeting{}
		d := c.getDecoder()
		defer c.putDecoder(d, len(body))
		return d.decodeMeetingBody(body, m)
	})
	if err != nil {
		return nil, err
	}
	if m.ID == "" {
		m.ID = id
	}
	return m, nil
}

// GetMinutes returns a meeting's minutes. Only minutes whose status is
// approved or published_draft are returned; any other status, or none, is
// ErrNotFound even when the server sent the minutes, so unpublished minutes
// can never reach a channel. MeetingID is the record's own meeting id, else
// meetingID.
//
// Errors: ErrNotFound (also for an empty id, "." or ".."),
// ErrUnauthorized, ErrForbidden (scope meetings:read), ErrRateLimited,
// ErrUnavailable, ErrInvalidResponse, ErrBadRequest.
func (c *Client) GetMinutes(ctx context.Context, meetingID string) (*Minutes, error) {
	ep := endpoint{http.MethodGet, "/meetings/{id}/minutes", scopeMeetingsRead}
	if err := c.checkID(ep, meetingID); err != nil {
		return nil, err
	}
	req, err := c.newRequest(ctx, http.MethodGet, "meetings/"+url.PathEscape(meetingID)+"/minutes", nil)
	if err != nil {
		return nil, c.newError(ep, 0, ErrInvalidResponse, "", err)
	}
	m := &Minutes{}
	err = c.do(req, ep, func(resp *http.Response, body []byte) error {
		*m = Minutes{}
		d := c.getDecoder()
		defer c.putDecoder(d, len(body))
		if err := d.decodeMinutesBody(body, m); err != nil {
			if errors.Is(err, errHiddenMinutes) {
				return c.newError(ep, resp.StatusCode, ErrNotFound, "minutes are not published", err)
			}
			return err
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if m.MeetingID == "" {
		m.MeetingID = meetingID
	}
	return m, nil
}
