package slacktest

import (
	"net/http"
	"testing"

	"github.com/slack-go/slack"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestResponseURLFaults(t *testing.T) {
	t.Parallel()
	tests := map[string]struct {
		fault Fault
		want  outcome
	}{
		"server error": {fault: Fault{Method: ResponseMethod, HTTPStatus: http.StatusInternalServerError, Times: 1}, want: outcome{status: 500}},
		"error code":   {fault: Fault{Method: ResponseMethod, Error: "expired_url", Times: 1}, want: outcome{code: "expired_url"}},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			srv, api := newTestServer(t)
			srv.InjectFault(tt.fault)
			reply := func() error {
				_, _, err := api.PostMessageContext(t.Context(), "",
					slack.MsgOptionReplaceOriginal(srv.ResponseURL("cmd-1")), slack.MsgOptionText("done", false))
				return err
			}

			requireOutcome(t, reply(), tt.want)
			require.NoError(t, reply())

			assert.Len(t, srv.ResponsePosts("cmd-1"), 1, "only the accepted post is recorded")
			calls := srv.Calls(ResponseMethod)
			require.Len(t, calls, 2, "every attempt is a call")
			assert.Equal(t, "cmd-1", calls[0].Params.Get("id"))
			assert.Empty(t, calls[1].Error)
		})
	}
}
