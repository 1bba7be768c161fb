package slackfake

import (
	"testing"

	"github.com/slack-go/slack"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/recordsbot/recordsbot/internal/slackapi/slackclienttest"
)

func taskEntity(link, id string, fields map[string]any) slack.WorkObjectEntity {
	payload := map[string]any{"attributes": map[string]any{"title": map[string]any{"text": "Send the budget"}}}
	if fields != nil {
		payload["fields"] = fields
	}
	return slack.WorkObjectEntity{AppUnfurlURL: link, URL: link, ExternalRef: slack.WorkObjectExternalRef{ID: id},
		EntityType: EntityTask, EntityPayload: payload}
}

// A card shows once previews are on for its type; without them, only the
// classic unfurl sent beside it, if any.
func TestWorkObjectCards(t *testing.T) {
	t.Parallel()
	srv, api := newTestServer(t)
	const link = "https://bot.example.org/actions/A1"
	meta := slack.WorkObjectMetadata{Entities: []slack.WorkObjectEntity{taskEntity(link, "A1", map[string]any{"status": map[string]any{"value": "Open"}})}}
	_, _, _, err := api.UnfurlMessageWorkObject("C1", "1.2", nil, meta)
	require.NoError(t, err)
	_, shown := srv.Card(link)
	assert.False(t, shown, "previews off: no card")

	srv.SetWorkObjects(EntityContentItem)
	_, shown = srv.Card(link)
	assert.False(t, shown, "previews on for another type: no card")

	srv.SetWorkObjects()
	c, shown := srv.Card(link)
	require.True(t, shown)
	assert.Equal(t, "Send the budget", c.Title)
	assert.Contains(t, string(c.Fields["status"]), "Open")
}

// chat.unfurl refuses entities that break Slack's schema.
func TestWorkObjectSchema(t *testing.T) {
	t.Parallel()
	_, api := newTestServer(t, WithWorkObjects())
	const link = "https://bot.example.org/actions/A1"
	for name, e := range map[string]slack.WorkObjectEntity{
		"a field tasks do not have": taskEntity(link, "A1", map[string]any{"owner": map[string]any{"value": "x"}}),
		"no app_unfurl_url":         func() slack.WorkObjectEntity { e := taskEntity(link, "A1", nil); e.AppUnfurlURL = ""; return e }(),
		"no external_ref":           taskEntity(link, "", nil),
		"an unknown type": func() slack.WorkObjectEntity {
			e := taskEntity(link, "A1", nil)
			e.EntityType = "slack#/entities/todo"
			return e
		}(),
	} {
		t.Run(name, func(t *testing.T) {
			_, _, _, err := api.UnfurlMessageWorkObject("C1", "1.2", nil, slack.WorkObjectMetadata{Entities: []slack.WorkObjectEntity{e}})
			slackclienttest.RequireSlackError(t, err, "invalid_metadata")
		})
	}
}

// The flexpane is one user's, presented with the trigger of their click,
// for the entity they clicked, once.
func TestWorkObjectPanel(t *testing.T) {
	t.Parallel()
	srv, api := newTestServer(t, WithWorkObjects())
	trigger := srv.EntityTrigger(alice.ID, "A1")

	other := taskEntity("https://bot.example.org/actions/A2", "A2", nil)
	err := api.EntityPresentDetails(slack.EntityPresentDetailsParameters{TriggerID: trigger,
		Metadata: &slack.EntityDetailsMetadata{EntityType: other.EntityType, URL: other.URL, ExternalRef: other.ExternalRef, EntityPayload: other.EntityPayload}})
	slackclienttest.RequireSlackError(t, err, "entity_metadata_does_not_match_trigger")

	err = api.EntityPresentDetails(slack.EntityPresentDetailsParameters{TriggerID: trigger, Error: &slack.EntityDetailsError{Status: "forbidden"}})
	slackclienttest.RequireSlackError(t, err, "invalid_arguments")

	require.NoError(t, api.EntityPresentDetails(slack.EntityPresentDetailsParameters{TriggerID: trigger, Error: &slack.EntityDetailsError{Status: "restricted"}}))
	p, ok := srv.Panel(alice.ID)
	require.True(t, ok)
	assert.Equal(t, "restricted", p.Error)
	assert.Nil(t, p.Entity, "nothing of it")
	_, ok = srv.Panel(bob.ID)
	assert.False(t, ok, "the panel is alice's alone")

	err = api.EntityPresentDetails(slack.EntityPresentDetailsParameters{TriggerID: trigger, Error: &slack.EntityDetailsError{Status: "restricted"}})
	slackclienttest.RequireSlackError(t, err, "invalid_trigger_id")
	err = api.EntityPresentDetails(slack.EntityPresentDetailsParameters{TriggerID: srv.NewTrigger(alice.ID), Error: &slack.EntityDetailsError{Status: "restricted"}})
	slackclienttest.RequireSlackError(t, err, "invalid_trigger_id")
}
