package bot_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
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
