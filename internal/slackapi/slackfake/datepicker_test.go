package slackfake

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A datepicker's block_actions carry the picked day as selected_date and
// the element's initial_date, as Slack documents
// (https://docs.slack.dev/reference/block-kit/block-elements/date-picker-element;
// bolt-js DatepickerAction); a day the picker cannot offer is refused.
func TestBlockActionsDatepicker(t *testing.T) {
	t.Parallel()
	s := &Sender{}
	el := json.RawMessage(`{"type":"datepicker","action_id":"snooze:date","initial_date":"2026-12-01"}`)
	body, err := s.BlockActions(Click{User: User{ID: "U0ALICE"}, BlockID: "b1", Element: el, Date: "2026-12-02"}, "")
	require.NoError(t, err)
	var p struct {
		Actions []map[string]any `json:"actions"`
	}
	require.NoError(t, json.Unmarshal(body, &p))
	require.Len(t, p.Actions, 1)
	assert.Equal(t, "2026-12-02", p.Actions[0]["selected_date"])
	assert.Equal(t, "2026-12-01", p.Actions[0]["initial_date"])
	assert.Equal(t, "datepicker", p.Actions[0]["type"])

	_, err = s.BlockActions(Click{User: User{ID: "U0ALICE"}, BlockID: "b1", Element: el, Date: "2 Dec"}, "")
	assert.ErrorContains(t, err, "is not a day the picker offers")
}
