package bot

import (
	"context"

	"github.com/recordsbot/recordsbot/internal/lang"
)

// reader returns ctx carrying the language of user, who a request
// answers (lang.FromContext). The locale comes with the profile the
// action domain caches (users.info asks for it), so this is the profile
// lookup the request makes anyway, not an extra Slack call; when Slack
// cannot say, the request is answered in ORG_LANGUAGE.
func (s *Server) reader(ctx context.Context, user string) context.Context {
	m, err := s.actions.Who(ctx, user)
	if err != nil {
		// Debug: the handler's own lookup meets the same failure and
		// says it to the user and the log.
		s.log.DebugContext(ctx, "language: profile unreadable, answering in ORG_LANGUAGE", "user", user, "error", err)
	}
	return lang.NewContext(ctx, s.actions.ReaderLanguage(m.Locale))
}

// knownLang is user's language from the profile cache alone, for answers
// given before any work (busy, a blank search): ORG_LANGUAGE when the
// profile is not cached.
func (s *Server) knownLang(user string) lang.Lang {
	m, _ := s.actions.WhoCached(user)
	return s.actions.ReaderLanguage(m.Locale)
}
