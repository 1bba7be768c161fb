package invisible

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
)

func TestStrip(t *testing.T) {
	t.Parallel()
	tests := []struct{ name, in, want string }{
		{"plain", "Review the budget", "Review the budget"},
		{"right-to-left override", "\u202Egnp.exe", "gnp.exe"},
		{"every bidi control", "a\u202Ab\u202Bc\u202Cd\u202De\u202Ef\u2066g\u2067h\u2068i\u2069j\u200Ek\u200Fl\u061Cm", "abcdefghijklm"},
		{"zero-width", "pay\u200Bpal\u200C\u200D\u2060\uFEFF", "paypal"},
		{"Hebrew reads as it is", "סקירת התקציב", "סקירת התקציב"},
		{"Arabic reads as it is", "مراجعة الميزانية", "مراجعة الميزانية"},
		{"emoji and accents", "Café ☕ 😀", "Café ☕ 😀"},
		{"invalid UTF-8 kept", "a\xffb\u202E", "a\xffb"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, tt.want, Strip(tt.in))
		})
	}
}

func FuzzStrip(f *testing.F) {
	for _, s := range []string{"", "plain", "\u202Egnp.exe", "a\u200Db", "\xff\u2066", "a\u2028b\u0085c\u2029", "\xe2\x80\u200b\xa8"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got := Strip(s)
		assert.False(t, strings.ContainsFunc(got, Is), "%q left in %q", got, s)
		assert.Equal(t, got, Strip(got), "idempotent")
		assert.LessOrEqual(t, len(got), len(s))
		if utf8.ValidString(s) {
			assert.True(t, utf8.ValidString(got))
		}
		if !strings.ContainsFunc(s, Is) {
			assert.Equal(t, s, got)
		}
	})
}
