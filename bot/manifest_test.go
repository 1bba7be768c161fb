package bot_test

import (
	"os"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"sigs.k8s.io/yaml"

	"github.com/recordsbot/recordsbot/bot"
	"github.com/recordsbot/recordsbot/bot/bottest"
)

type manifest struct {
	Features struct {
		SlashCommands []struct {
			Command     string `json:"command"`
			URL         string `json:"url"`
			Description string `json:"description"`
			UsageHint   string `json:"usage_hint"`
			ShouldEsc   bool   `json:"should_escape"`
		} `json:"slash_commands"`
		UnfurlDomains []string `json:"unfurl_domains"`
	} `json:"features"`
	OAuth struct {
		Scopes struct {
			Bot []string `json:"bot"`
		} `json:"scopes"`
	} `json:"oauth_config"`
	Settings struct {
		Events struct {
			RequestURL string   `json:"request_url"`
			BotEvents  []string `json:"bot_events"`
		} `json:"event_subscriptions"`
		Interactivity struct {
			Enabled    bool   `json:"is_enabled"`
			RequestURL string `json:"request_url"`
		} `json:"interactivity"`
	} `json:"settings"`
}

func readManifest(t *testing.T) manifest {
	t.Helper()
	b, err := os.ReadFile("../manifest.yaml")
	require.NoError(t, err)
	var m manifest
	require.NoError(t, yaml.Unmarshal(b, &m))
	return m
}

// Every command the bot handles is in the manifest and vice versa, all
// pointing at the one endpoint, with user mentions escaped (so /actions @x
// arrives as <@U…>).
func TestManifestCommands(t *testing.T) {
	t.Parallel()
	m := readManifest(t)
	var declared []string
	for _, c := range m.Features.SlashCommands {
		declared = append(declared, c.Command)
		assert.Equal(t, "https://YOUR_HOST/slack/events", c.URL, c.Command)
		assert.NotEmpty(t, c.Description, c.Command)
		assert.NotEmpty(t, c.UsageHint, c.Command)
		assert.True(t, c.ShouldEsc, "%s: should_escape sends mentions as IDs", c.Command)
	}
	sort.Strings(declared)
	srv := bottest.Offline(t, bot.Config{}, bot.Deps{})
	assert.Equal(t, srv.Commands(), declared)
	assert.Equal(t, "https://YOUR_HOST/slack/events", m.Settings.Events.RequestURL)
	assert.True(t, m.Settings.Interactivity.Enabled)
	assert.Equal(t, "https://YOUR_HOST/slack/events", m.Settings.Interactivity.RequestURL)
	assert.ElementsMatch(t, []string{"app_home_opened", "link_shared", "entity_details_requested"}, m.Settings.Events.BotEvents)
	assert.Equal(t, []string{"YOUR_HOST"}, m.Features.UnfurlDomains)
}

// The manifest asks for exactly the scopes the code's Slack calls need.
func TestManifestScopes(t *testing.T) {
	t.Parallel()
	m := readManifest(t)
	// The Web API methods the bot package calls, found in its source, and
	// the scope each needs.
	need := map[string][]string{
		"GetUserInfoContext":      {"users:read"},
		"GetUsersPaginated":       {"users:read"}, // users.list
		"GetUserByEmailContext":   {"users:read.email"},
		"PostMessageContext":      {"chat:write"},
		"UpdateMessageContext":    {"chat:write"},
		"UnfurlMessageContext":    {"links:write"},
		"OpenConversationContext": {"im:write"},
		// conversations.info before a follow: is the bot in the channel
		// (public or private)?
		"GetConversationInfoContext": {"channels:read", "groups:read"},
		// Crash recovery of exactly-once posts (internal/once): the history
		// of a DM or a channel (public or private), or a thread's replies,
		// with the messages' metadata, which needs metadata.message:read
		// (https://docs.slack.dev/reference/scopes/metadata.message.read).
		"GetConversationHistoryContext": {"im:history", "channels:history", "groups:history", "metadata.message:read"},
		"GetConversationRepliesContext": {"im:history", "channels:history", "groups:history", "metadata.message:read"},
	}
	used := map[string]bool{"commands": true, "links:read": true} // slash commands; link_shared events
	call := regexp.MustCompile(`\.(\w+Context|GetUsersPaginated)\(`)
	// Every package that calls Slack: the edge, the domain and the jobs.
	for _, dir := range []string{".", "../actions", "../remind", "../watch", "../internal/once"} {
		entries, err := os.ReadDir(dir)
		if os.IsNotExist(err) {
			continue
		}
		require.NoError(t, err)
		for _, e := range entries {
			if !strings.HasSuffix(e.Name(), ".go") || strings.HasSuffix(e.Name(), "_test.go") {
				continue
			}
			src, err := os.ReadFile(dir + "/" + e.Name())
			require.NoError(t, err)
			for _, m := range call.FindAllStringSubmatch(string(src), -1) {
				for _, scope := range need[m[1]] {
					used[scope] = true
				}
			}
		}
	}
	if used["users:read.email"] {
		used["users:read"] = true // lookupByEmail needs both
	}
	// users.info's email needs users:read.email too.
	if used["users:read"] {
		used["users:read.email"] = true
	}
	var want []string
	for s := range used {
		want = append(want, s)
	}
	assert.ElementsMatch(t, want, m.OAuth.Scopes.Bot)
}

// The bot builds no service of its own: a server without one is a wiring
// mistake, named at once.
func TestNewServerRequiresItsServices(t *testing.T) {
	t.Parallel()
	assert.PanicsWithValue(t, "bot.NewServer: Deps.Slack is required", func() { bot.NewServer(bot.Config{}, bot.Deps{}) })
}
