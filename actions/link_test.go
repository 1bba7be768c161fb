package actions

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestLink(t *testing.T) {
	t.Parallel()
	s := New(nil, nil, Config{PublicURL: "https://bot.example.org/"})
	link := s.Link("FIN-2026-10/1")
	assert.Equal(t, "https://bot.example.org/actions/FIN-2026-10%2F1", link)
	for in, want := range map[string]string{
		link:                                    "FIN-2026-10/1",
		"https://BOT.example.org/actions/A-1":   "A-1",
		"https://bot.example.org/actions/A-1/x": "",
		"https://bot.example.org/minutes/A-1":   "",
		"https://elsewhere.example/actions/A-1": "",
		"https://bot.example.org/actions/":      "",
	} {
		id, ok := s.LinkID(in)
		assert.Equal(t, want, id, in)
		assert.Equal(t, want != "", ok, in)
	}
	off := New(nil, nil, Config{})
	assert.Empty(t, off.Link("A-1"), "no PUBLIC_URL: no link")
	_, ok := off.LinkID("https://bot.example.org/actions/A-1")
	assert.False(t, ok)
}
