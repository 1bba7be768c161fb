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
