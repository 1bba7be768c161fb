package bot_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/recordsbot/recordsbot/bot"
	"github.com/recordsbot/recordsbot/remind"
)

// TestActionsInTheReadersSlackLocale: a member whose Slack locale is
// fr-FR (users.info with include_locale, through the fake Slack as Slack
// documents it) reads /actions in French, and one in de-DE in German;
// without a shipped locale the answer is English (ORG_LANGUAGE's default).
func TestActionsInTheReadersSlackLocale(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		locale string
		want   []string
		not    []string
	}{
		{"fr-FR", []string{"Vos actions ouvertes", "Terminer", "Échéance"}, []string{"Your open actions", "Due <!date"}},
		{"de-DE", []string{"Ihre offenen Aufgaben", "Erledigt", "Fällig"}, []string{"Your open actions", "Due <!date"}},
		{"ja-JP", []string{"Your open actions", "Complete"}, []string{"Vos actions"}},
	} {
		t.Run(tt.locale, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t)
			alice := h.person("alice")
			alice.Locale = tt.locale
			h.addUser(alice)
			require.NotEmpty(t, h.openActionsOf(alice.Email))
			m, _ := h.slash(alice, "/actions", "")
			for _, w := range tt.want {
				assert.Contains(t, m.all(), w)
			}
			for _, w := range tt.not {
				assert.NotContains(t, m.all(), w)
			}
		})
	}
}

// TestCommandAliasesAndHelpInTheReadersLanguage: help comes in the
// reader's language with that language's command words beside the English
// ones, and a command typed with an alias of any shipped language does
// what the English keyword does.
func TestCommandAliasesAndHelpInTheReadersLanguage(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	alice := h.person("alice")
	alice.Locale = "fr-FR"
	h.addUser(alice)

	m, _ := h.slash(alice, "/actions", "aide")
	assert.Contains(t, m.all(), "vos actions en retard")
	assert.Contains(t, m.all(), "`/actions en-retard`")
	assert.NotContains(t, m.all(), "your overdue actions")

	m, _ = h.slash(alice, "/actions", "en-retard")
	assert.Contains(t, m.all(), "Vos actions en retard")
	m, _ = h.slash(alice, "/actions", "EN-RETARD")
	assert.Contains(t, m.all(), "Vos actions en retard", "aliases ignore case")

	m, _ = h.slash(alice, "/actions", "frobnicate")
	assert.Contains(t, m.all(), "Je n’ai pas compris `frobnicate`.")

	// English keywords keep working for her, and a German alias too.
	m, _ = h.slash(alice, "/actions", "overdue")
	assert.Contains(t, m.all(), "Vos actions en retard")
	m, _ = h.slash(alice, "/actions", "uberfallig")
	assert.Contains(t, m.all(), "Vos actions en retard", "accents may be left out")

	m, _ = h.slash(alice, "/meetings", "aide")
	assert.Contains(t, m.all(), "les dernières réunions")
	m, _ = h.slash(alice, "/minutes", "aide")
	assert.Contains(t, m.all(), "`/minutes recherche")

	bob := h.person("bob") // no locale: ORG_LANGUAGE, English
	h.addUser(bob)
	m, _ = h.slash(bob, "/actions", "todas")
	assert.Contains(t, m.all(), "All your actions")
}

// TestAFrenchMemberReadsEverythingInFrench: a member whose Slack locale is
// fr-FR reads /actions, a status button's result, their Home tab and their
// reminder DM in French, with French plurals; the reminder job learns the
// locale from the users.list page it reads anyway (include_locale, as
// Slack documents it), with no call per person. A member whose locale is
// not shipped (ja-JP) reads ORG_LANGUAGE, here German.
func TestAFrenchMemberReadsEverythingInFrench(t *testing.T) {
	t.Parallel()
	h := newHarness(t, remindWorld, withConfig(func(c *bot.Config) { c.Language = mustLang(t, "de") }))
	alice := h.person("alice")
	alice.Locale = "fr-FR"
	h.addUser(alice)
	bob := h.person("bob")
	bob.Locale = "ja-JP"
	h.addUser(bob)

	// /actions, and a click on a row's Complete.
	m, _ := h.slash(alice, "/actions", "")
	assert.Contains(t, m.all(), "Vos actions ouvertes")
	assert.NotContains(t, m.all(), "Your open actions")
	after := h.clickEphemeral(alice, m, "status:complete", "A-1")
	require.NotEmpty(t, after)
	assert.Contains(t, after[0].all(), "Terminée par")
	assert.NotContains(t, after[0].all(), "Marked complete")

	// The Home tab.
	home := h.openHome(t, "Ev-fr-home", alice)
	assert.Contains(t, home.all(), "Vos actions")
	assert.NotContains(t, home.all(), "Your actions")

	// bob's locale is not shipped: ORG_LANGUAGE.
	m, _ = h.slash(bob, "/actions", "")
	assert.Contains(t, m.all(), "Ihre offenen Aufgaben")

	// The reminder job, in each person's language, ORG_LANGUAGE German.
	infos := len(h.slack.Calls("users.info")) // the bot's, above
	run := h.remind(remind.Config{Days: 3, Language: mustLang(t, "de")})
	require.NoError(t, run.err)
	_, aliceDM := h.dm("DU0ALICE")
	assert.Contains(t, aliceDM.all(), "Rappel de vos actions")
	assert.Contains(t, aliceDM.Text, "2 actions", "French plural")
	assert.Contains(t, aliceDM.Text, "d’ici 3 jours")
	assert.NotContains(t, aliceDM.all(), "Action reminder")
	_, bobDM := h.dm("DU0BOB")
	assert.Contains(t, bobDM.all(), "Erinnerung an Ihre Aufgaben", "ja-JP is not shipped: ORG_LANGUAGE")
	_, carolDM := h.dm("DU0CAROL")
	assert.Contains(t, carolDM.all(), "Action reminder", "Slack's default locale, en-US")

	lists := h.slack.Calls("users.list")
	require.Len(t, lists, 1, "one users.list page, no call per person")
	assert.Equal(t, "true", lists[0].Params.Get("include_locale"))
	assert.Len(t, h.slack.Calls("users.info"), infos, "the job asks nobody's profile")
}
