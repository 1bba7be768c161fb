package bot

import (
	"net/http"
	"net/url"
	"testing"

	"github.com/slack-go/slack"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// FuzzSlashForm: whatever slashForm reads, it reads as the general way
// does (url.ParseQuery, then slack.SlashCommandParse); what it does not
// read (ok false) goes the general way.
func FuzzSlashForm(f *testing.F) {
	for _, s := range []string{
		"token=bench-verification-token&team_id=T0001&team_domain=bench&channel_id=C0001&channel_name=general&user_id=U0001&user_name=user1&command=%2Factions&text=open&api_app_id=A0001&is_enterprise_install=false&response_url=http%3A%2F%2F127.0.0.1%3A18081%2Fhooks%2Fcommands%2FT0001%2F1%2Fbench&trigger_id=1.1.bench",
		"command=%2Factions&text=%E2%80%AEreversed&user_id=",
		"command=&command=%2Factions",
		"command=%2Factions&text=a+b%20c&text=second&is_enterprise_install=true",
		"comm%61nd=%2Fminutes&user_id=U1",
		"command=%2Factions&payload=%7B%7D",
		"pay%6Coad=x&command=%2Factions",
		"command=%2Factions;text=x",
		"command=%2Factions&text=%zz",
		"command=%2Factions&text=%4",
		"%zz=1&command=x",
		"ssl_check=1&token=x",
		"text=no+command",
		"=&&=x&command",
		"",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		got, ok := slashForm(body)
		if !ok {
			return
		}
		form, err := url.ParseQuery(string(body))
		require.NoError(t, err, "slashForm read a body url.ParseQuery refuses")
		require.True(t, form.Has("command"))
		require.False(t, form.Has("payload"))
		want, err := slack.SlashCommandParse(&http.Request{Form: form, PostForm: form})
		require.NoError(t, err)
		assert.Equal(t, want, got)
	})
}

// TestSlashFormReadsSlacksCommands: a command as Slack sends it is read
// by slashForm, not left to the general way.
func TestSlashFormReadsSlacksCommands(t *testing.T) {
	sc, ok := slashForm([]byte("token=t&team_id=T1&user_id=U0001&command=%2Factions&text=open+overdue&response_url=https%3A%2F%2Fhooks.slack.com%2Fcommands%2FT1%2F2%2Fx&trigger_id=1.2"))
	require.True(t, ok)
	assert.Equal(t, slack.SlashCommand{Token: "t", TeamID: "T1", UserID: "U0001", Command: "/actions", Text: "open overdue",
		ResponseURL: "https://hooks.slack.com/commands/T1/2/x", TriggerID: "1.2"}, sc)
}

// BenchmarkSlashForm reads the benchmark's slash command both ways: in one
// pass (slashForm) and the general way.
func BenchmarkSlashForm(b *testing.B) {
	body := []byte("token=bench-verification-token&team_id=T0001&team_domain=bench&channel_id=C0001&channel_name=general&user_id=U0001&user_name=user1&command=%2Factions&text=open&api_app_id=A0001&is_enterprise_install=false&response_url=http%3A%2F%2F127.0.0.1%3A18081%2Fhooks%2Fcommands%2FT0001%2F1%2Fbench&trigger_id=1.1.bench")
	b.Run("slashForm", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, ok := slashForm(body); !ok {
				b.Fatal("not read")
			}
		}
	})
	b.Run("ParseQuery+SlashCommandParse", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			form, err := url.ParseQuery(string(body))
			if err != nil {
				b.Fatal(err)
			}
			if _, err := slack.SlashCommandParse(&http.Request{Form: form, PostForm: form}); err != nil {
				b.Fatal(err)
			}
		}
	})
}
