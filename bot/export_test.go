package bot

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/recordsbot/recordsbot/apiclient"
	"github.com/recordsbot/recordsbot/blocks"
)

// RedrawAfterClick is the work of a click on a status button of an
// ephemeral /actions list once the change is made: the caller's page
// redrawn with the action (as changed to status to) annotated, encoded as
// the response_url body. The caller's profile and the list must be cached.
func (s *Server) RedrawAfterClick(ctx context.Context, caller, actionID string, to apiclient.Status) ([]byte, error) {
	list, err := s.actions.List(ctx, "")
	if err != nil {
		return nil, err
	}
	for _, a := range list.Actions {
		if a.ID == actionID {
			a.Status = to
			now := s.clicks.now()
			r := s.clicks.acts.actionsPage(ctx, caller, actionsQuery{}, &clicked{action: a, change: &blocks.Change{By: caller, At: now, Status: string(to)}})
			r.ReplaceOriginal = true
			return encodeAck(r)
		}
	}
	return nil, fmt.Errorf("no action %s", actionID)
}

// HomeView is user's Home tab as it stands, encoded as views.publish
// sends it.
func (s *Server) HomeView(ctx context.Context, user string) ([]byte, error) {
	return json.Marshal(s.home.build(ctx, user, homeState{}))
}
