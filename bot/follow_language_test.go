package bot_test

import (
	"strings"
	"testing"
	"time"

	"github.com/slack-go/slack"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/recordsbot/recordsbot/bot"
	"github.com/recordsbot/recordsbot/follows"
	"github.com/recordsbot/recordsbot/internal/clocktime"
	"github.com/recordsbot/recordsbot/internal/clocktime/clocktimetest"
	"github.com/recordsbot/recordsbot/internal/slackapi/slacktest"
	"github.com/recordsbot/recordsbot/store"
	"github.com/recordsbot/recordsbot/watch"
)

// TestGermanChannelDigest: a channel that follows Finance with
// `language de` hears about it in German, whoever asked: the follow's
// confirmation in the channel and the weekly digest the watcher posts
// there, end to end (the command over signed HTTP, the language kept in
// the store, the watcher's poll posting through the fake Slack). The
// member who asked reads their own answers in their Slack locale's
// language (French), and /minutes following says what the channel's
// posts are written in.
func TestGermanChannelDigest(t *testing.T) {
	t.Parallel()
	for _, engine := range storeEngines {
		t.Run(engine, func(t *testing.T) {
			t.Parallel()
			clock := &testClock{t: time.Now().UTC()}
			st := openTestStore(t, engine, store.WithClock(clock.Now))
			h := newStoreHarness(t, st, withConfig(func(c *bot.Config) { c.Follows.Digest = clocktimetest.Weekly(t, "mon 09:00") }))
			alice := h.person("alice")
			alice.Locale = "fr-FR"
			h.addUser(alice)
			const general = "C0GENERAL"
			wdeps := h.watcherDeps(t, st)
			// The channel's own slot: the day after tomorrow at 16:30 UTC;
			// the organisation's is a week off.
			slot := clock.Now().Truncate(24*time.Hour).AddDate(0, 0, 2).Add(16*time.Hour + 30*time.Minute)
			day := strings.ToLower(slot.Weekday().String()[:3])
			wcfg := watch.Config{Follows: follows.Settings{Digest: &clocktime.Weekly{On: true, Day: slot.AddDate(0, 0, 3).Weekday(), At: clocktime.Of(9, 0)}}, Now: clock.Now}
			poll := func() watch.Summary {
				t.Helper()
				sum, err := watch.Poll(t.Context(), wcfg, wdeps)
				require.NoError(t, err)
				return sum
			}

			bad := h.minutesIn(alice, general, "general", "follow finance language xx")
			assert.Contains(t, bad.Text, "Je ne connais pas la langue `xx`", "a bad code, told in the asker's language")
			assert.Contains(t, bad.Text, "`de` (Deutsch)", "the shipped languages listed")
			assert.Empty(t, followKeys(t, st, general), "nothing followed")

			got := h.minutesIn(alice, general, "general", "follow finance language de digest "+day+" 16:30")
			assert.Equal(t, slack.ResponseTypeInChannel, got.ResponseType)
			for _, w := range []string{"hat diesen Kanal *Finance* folgen lassen", "Die Wochenübersicht von *Finance* kommt hierher jeden",
				"Sprache der Beiträge dieses Kanals zu *Finance*: Deutsch"} {
				assert.Contains(t, got.Text, w, "the channel reads the follow in its own language")
			}
			for _, w := range []string{"made this channel follow", "Weekly digest", "a fait suivre"} {
				assert.NotContains(t, got.Text, w)
			}
			fs, err := st.FollowsInChannel(t.Context(), general)
			require.NoError(t, err)
			require.Len(t, fs, 1)
			assert.Equal(t, "de", fs[0].Language, "kept in the store")

			list := h.minutesIn(alice, general, "general", "following")
			assert.Contains(t, list.all(), "Ce canal suit", "the list in the reader's language")
			assert.Contains(t, list.all(), "Langue des messages : allemand")

			poll() // the baseline poll
			clock.Add(slot.Add(time.Minute).Sub(clock.Now()))
			require.Equal(t, 1, poll().Digests, "the digest at the channel's slot")
			var digest *slacktest.Message
			for _, m := range h.slack.Messages(general) {
				if !m.Ephemeral && strings.Contains(string(m.Metadata), "digest") {
					digest = &m
				}
			}
			require.NotNil(t, digest, "a digest posted in the channel")
			posted := digest.Text + string(digest.Blocks)
			for _, w := range []string{"Wochenübersicht von Finance", "Wochenübersicht: Finance", "offen"} {
				assert.Contains(t, posted, w, "the digest is in German")
			}
			for _, w := range []string{"Weekly digest", " open", "overdue", "Résumé"} {
				assert.NotContains(t, posted, w, "no English or French in a German channel's digest")
			}
		})
	}
}

// TestFollowLanguageBackToDefault: `/minutes follow <committee> language
// default` takes a follow's own language away, so its channel reads its
// posts in ORG_LANGUAGE again; /minutes following says how while a
// language is chosen and stops naming one after, and help names it. On
// both engines.
func TestFollowLanguageBackToDefault(t *testing.T) {
	t.Parallel()
	for _, engine := range storeEngines {
		t.Run(engine, func(t *testing.T) {
			t.Parallel()
			st := openTestStore(t, engine)
			h := newStoreHarness(t, st, withConfig(func(c *bot.Config) { c.Language = mustLang(t, "es") }))
			alice := h.person("alice")
			alice.Locale = "fr-FR"
			h.addUser(alice)
			const general = "C0GENERAL"
			language := func() string {
				t.Helper()
				fs, err := st.FollowsInChannel(t.Context(), general)
				require.NoError(t, err)
				require.Len(t, fs, 1)
				return fs[0].Language
			}

			h.minutesIn(alice, general, "general", "follow finance language de")
			require.Equal(t, "de", language())
			list := h.minutesIn(alice, general, "general", "following")
			assert.Contains(t, list.all(), "Langue des messages : allemand (`/minutes follow … language default`", "how to go back, in the reader's language")

			got := h.minutesIn(alice, general, "general", "follow finance language default")
			assert.Equal(t, slack.ResponseTypeInChannel, got.ResponseType)
			assert.Contains(t, got.Text, "Los mensajes de este canal sobre *Finance* vuelven a estar en el idioma de la organización: español",
				"the channel reads it in ORG_LANGUAGE again")
			assert.NotContains(t, got.Text, "Sprache")
			assert.Empty(t, language(), "ORG_LANGUAGE in the store")
			list = h.minutesIn(alice, general, "general", "following")
			assert.Contains(t, list.all(), "Langue des messages : espagnol, celle de l’organisation", "no language of its own")
			assert.NotContains(t, list.all(), "language default")

			got = h.minutesIn(alice, general, "general", "follow finance LANGUAGE Default")
			assert.Contains(t, got.Text, "idioma de la organización", "the words in any case")

			help, _ := h.slash(alice, "/minutes", "help")
			assert.Contains(t, help.all(), "ou `default` pour `ORG_LANGUAGE`")
		})
	}
}
