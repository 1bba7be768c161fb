package health

import (
	"context"
	"errors"
	"fmt"

	"github.com/slack-go/slack"

	"github.com/recordsbot/recordsbot/apiclient"
)

// Records probes the records service by listing the first page of
// meetings. Any answer that proves the service is up and the key accepted
// passes, including a 403 (a key without meetings:read still serves
// actions), a 404 and a 429; a refused key, a 5xx or no answer fails.
func Records(records interface {
	ListMeetings(context.Context, *apiclient.ListMeetingsOptions) (*apiclient.MeetingPage, error)
}) Probe {
	return func(ctx context.Context) error {
		_, err := records.ListMeetings(ctx, nil)
		switch {
		case err == nil, errors.Is(err, apiclient.ErrForbidden), errors.Is(err, apiclient.ErrNotFound), errors.Is(err, apiclient.ErrRateLimited):
			return nil
		}
		return fmt.Errorf("records api: %w", err)
	}
}

// Slack probes Slack with auth.test: a refused token (invalid_auth,
// token_revoked…) or no answer fails. Being rate limited proves the
// opposite, so it passes.
func Slack(api interface {
	AuthTestContext(context.Context) (*slack.AuthTestResponse, error)
}) Probe {
	return func(ctx context.Context) error {
		_, err := api.AuthTestContext(ctx)
		var rl *slack.RateLimitedError
		if err == nil || errors.As(err, &rl) {
			return nil
		}
		return fmt.Errorf("slack auth.test: %w", err)
	}
}
