package store

import (
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestRedact(t *testing.T) {
	t.Parallel()
	tests := []struct{ name, in, want string }{
		{"url", "postgres://bot:s3cret-pw@db.internal:5432/recordsbot?sslmode=require",
			"postgres://bot:xxxxx@db.internal:5432/recordsbot?sslmode=require"},
		{"postgresql url", "postgresql://bot:s3cret-pw@db/recordsbot", "postgresql://bot:xxxxx@db/recordsbot"},
		{"url with an @ in the password", "postgres://bot:p@ss@db/recordsbot", "postgres://bot:xxxxx@db/recordsbot"},
		{"url without a password", "postgres://bot@db/recordsbot", "postgres://bot@db/recordsbot"},
		{"url with a port and no user", "postgres://db:5432/recordsbot", "postgres://db:5432/recordsbot"},
		{"query parameter", "postgres://bot@db/recordsbot?password=s3cret-pw&sslmode=require",
			"postgres://bot@db/recordsbot?password=xxxxx&sslmode=require"},
		{"query sslpassword", "postgres://bot@db/x?sslmode=verify-full&sslpassword=s3cret-pw",
			"postgres://bot@db/x?sslmode=verify-full&sslpassword=xxxxx"},
		{"key=value", "host=db user=bot password=s3cret-pw dbname=recordsbot",
			"host=db user=bot password=xxxxx dbname=recordsbot"},
		{"key = value with spaces", "host=db password = s3cret-pw dbname=x", "host=db password=xxxxx dbname=x"},
		{"quoted key=value", `host=db password='s3cret pw' dbname=x`, "host=db password=xxxxx dbname=x"},
		{"quoted with an escaped quote", `host=db password='s3c\'ret pw' dbname=x`, "host=db password=xxxxx dbname=x"},
		{"upper case", "HOST=db PASSWORD=s3cret-pw", "HOST=db PASSWORD=xxxxx"},
		{"an environment variable", "PGPASSWORD=s3cret-pw psql", "PGPASSWORD=xxxxx psql"},
		{"in an error", `open store "postgres://bot:s3cret-pw@db/x": dial tcp: refused`,
			`open store "postgres://bot:xxxxx@db/x": dial tcp: refused`},
		{"url without a scheme", "//bot:s3cret-pw@db/recordsbot", "//bot:xxxxx@db/recordsbot"},
		{"url without its slashes", "bot:s3cret-pw@db:5432/recordsbot", "bot:xxxxx@db:5432/recordsbot"},
		{"no secret", "sqlite:///var/lib/recordsbot/recordsbot.db", "sqlite:///var/lib/recordsbot/recordsbot.db"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got := Redact(tt.in)
			assert.Equal(t, tt.want, got)
			assert.NotContains(t, got, "s3c")
		})
	}
}

// A key=value DATABASE_URL, which Open does not take, is refused without
// echoing its password (it was, in the start-up error).
func TestBadURLHidesAKeyValuePassword(t *testing.T) {
	t.Parallel()
	for _, u := range []string{
		"host=db user=bot password=s3cret-pw dbname=recordsbot",
		"host=db password='s3cret pw'",
		"mysql://bot@db/x?password=s3cret-pw",
	} {
		err := CheckURL(u)
		require.Error(t, err)
		assert.NotContains(t, err.Error(), "s3cret", u)
		_, err = Open(t.Context(), u)
		require.Error(t, err)
		assert.NotContains(t, err.Error(), "s3cret", u)
		assert.ErrorIs(t, err, ErrBadURL, "redacting keeps the error's kind")
	}
}

// Open's errors are redacted however the driver words them, and still
// unwrap to their cause.
func TestOpenErrorsAreRedacted(t *testing.T) {
	t.Parallel()
	cause := errors.New(`connect "postgres://bot:s3cret-pw@db/x" failed`)
	err := redactedError{unavailable(cause)}
	assert.Equal(t, `store unavailable: connect "postgres://bot:xxxxx@db/x" failed`, err.Error())
	assert.ErrorIs(t, err, ErrUnavailable)
	assert.ErrorIs(t, err, cause)
}

// Whatever surrounds it, a password given in any of the DSN forms never
// survives Redact.
func FuzzRedact(f *testing.F) {
	for _, seed := range [][2]string{
		// Each seed passes the check below (six or more bytes, none of the
		// delimiters), or it would only ever be skipped.
		{"", "s3cret-pw"}, {"open ", "pa$$w0rd!"}, {"host=db ", "semi;colon=pw"}, {"x", "päss-wörd"}, {"\n", "ZZZZZZ"},
	} {
		f.Add(seed[0], seed[1])
	}
	f.Fuzz(func(t *testing.T, around, pw string) {
		// A password the forms can carry: no white space in the bare
		// forms, none of the URL's delimiters; long enough not to occur by
		// chance in the text around it.
		if len(pw) < 6 || strings.ContainsAny(pw, " \t\r\n\v\f'\\&#/?:@\x85\xa0") || strings.Contains(around, pw) {
			t.Skip("not a password the forms can carry")
		}
		for _, form := range []string{
			"postgres://bot:" + pw + "@db:5432/recordsbot?sslmode=require",
			"postgres://bot@db/recordsbot?password=" + pw + "&sslmode=disable",
			"host=db user=bot password=" + pw + " dbname=recordsbot",
			"host=db password='" + pw + " and more' dbname=recordsbot",
		} {
			in := around + form + around
			if got := Redact(in); strings.Contains(got, pw) {
				t.Fatalf("Redact(%q) = %q: the password survives", in, got)
			}
		}
	})
}
