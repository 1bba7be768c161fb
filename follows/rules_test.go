package follows_test

import (
	"errors"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"github.com/recordsbot/recordsbot/follows"
	"github.com/recordsbot/recordsbot/internal/clocktime"
	"github.com/recordsbot/recordsbot/internal/clocktime/clocktimetest"
	"github.com/recordsbot/recordsbot/internal/lang"
	"github.com/recordsbot/recordsbot/store"
)

// TestMayChange: who may change a follow, the checks in one order for
// every surface (the command and the checkboxes alike).
func TestMayChange(t *testing.T) {
	t.Parallel()
	down := errors.New("users.info: timeout")
	cases := []struct {
		name  string
		rules follows.Rules
		who   follows.Changer
		want  error
	}{
		{"a member", follows.Rules{}, follows.Changer{}, nil},
		{"a guest", follows.Rules{}, follows.Changer{Guest: true}, follows.ErrGuest},
		{"an admin who is a guest", follows.Rules{}, follows.Changer{Admin: true, Guest: true}, follows.ErrGuest},
		{"unknown to Slack", follows.Rules{}, follows.Changer{ProfileErr: down}, follows.ErrProfileUnknown},
		{"a member, admins only", follows.NewRules(follows.Settings{AdminsOnly: true}, lang.English), follows.Changer{}, follows.ErrAdminsOnly},
		{"admins only comes before Slack's answer", follows.NewRules(follows.Settings{AdminsOnly: true}, lang.English), follows.Changer{ProfileErr: down}, follows.ErrAdminsOnly},
		{"an admin, admins only", follows.NewRules(follows.Settings{AdminsOnly: true}, lang.English), follows.Changer{Admin: true}, nil},
		{"an admin unknown to Slack", follows.NewRules(follows.Settings{AdminsOnly: true}, lang.English), follows.Changer{Admin: true, ProfileErr: down}, follows.ErrProfileUnknown},
		{"a profile error wins over what it said", follows.Rules{}, follows.Changer{Guest: true, ProfileErr: down}, follows.ErrProfileUnknown},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got := tc.rules.MayChange(tc.who)
			if tc.want == nil {
				assert.NoError(t, got)
				return
			}
			assert.ErrorIs(t, got, tc.want)
		})
	}
}

// TestDigestSchedule: when a follow's digest comes and whether its
// channel hears it (the box /minutes following ticks is the watcher's
// rule).
func TestDigestSchedule(t *testing.T) {
	t.Parallel()
	off, on := false, true
	cases := []struct {
		name      string
		org       *clocktime.Weekly
		own       *clocktime.Weekly
		choice    *bool
		defaults  store.FollowDefaults
		wantSched string
		wantHears bool
	}{
		{name: "nothing said: Monday 09:00", wantSched: "mon 09:00", wantHears: true},
		{name: "the organisation's", org: clocktimetest.Weekly(t, "fri 16:00"), wantSched: "fri 16:00", wantHears: true},
		{name: "the channel's own wins", org: clocktimetest.Weekly(t, "fri 16:00"), own: clocktimetest.Weekly(t, "tue 08:30"), wantSched: "tue 08:30", wantHears: true},
		{name: "organisation off", org: clocktimetest.Weekly(t, "off"), wantSched: "off"},
		{name: "organisation off, own time", org: clocktimetest.Weekly(t, "off"), own: clocktimetest.Weekly(t, "wed 10:00"), wantSched: "wed 10:00", wantHears: true},
		{name: "own off, kept the old way", own: clocktimetest.Weekly(t, "off"), wantSched: "off"},
		{name: "box unticked", own: clocktimetest.Weekly(t, "wed 10:00"), choice: &off, wantSched: "wed 10:00"},
		{name: "off by FOLLOW_DEFAULTS", defaults: store.FollowDefaults{Off: []string{store.HearDigest}}, wantSched: "mon 09:00"},
		{name: "ticked over FOLLOW_DEFAULTS", defaults: store.FollowDefaults{Off: []string{store.HearDigest}}, choice: &on, wantSched: "mon 09:00", wantHears: true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r := follows.NewRules(follows.Settings{Digest: tc.org, Defaults: tc.defaults}, lang.English)
			f := store.Follow{Choices: store.FollowChoices{Digest: tc.choice}}
			d := store.Digest{Schedule: tc.own}
			assert.Equal(t, tc.wantSched, r.Schedule(d).String())
			assert.Equal(t, tc.wantHears, r.HearsDigest(f, d))
		})
	}
}

// TestHears: what a channel hears of a follow besides the digest.
func TestHears(t *testing.T) {
	t.Parallel()
	off := false
	r := follows.NewRules(follows.Settings{Defaults: store.FollowDefaults{Off: []string{store.HearBriefs}}}, lang.English)
	f := store.Follow{Choices: store.FollowChoices{Drafts: &off}}
	for what, want := range map[string]bool{store.HearDrafts: false, store.HearApprovals: true, store.HearBriefs: false} {
		assert.Equal(t, want, r.Hears(f, what), what)
	}
}

// TestLanguage: what a channel's posts are written in.
func TestLanguage(t *testing.T) {
	t.Parallel()
	fr, err := lang.Parse("fr")
	assert.NoError(t, err)
	de, err := lang.Parse("de")
	assert.NoError(t, err)
	cases := []struct {
		name   string
		org    lang.Lang
		chosen string
		want   lang.Lang
	}{
		{"nothing chosen: English", lang.English, "", lang.English},
		{"ORG_LANGUAGE", fr, "", fr},
		{"the follow's own", fr, "de", de},
		{"a code no longer shipped: ORG_LANGUAGE", fr, "xx", fr},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r := follows.NewRules(follows.Settings{}, tc.org)
			assert.Equal(t, tc.want, r.Language(store.Follow{Language: tc.chosen}))
		})
	}
}

// TestDefaultDigest is DIGEST_DEFAULT's documented default.
func TestDefaultDigest(t *testing.T) {
	t.Parallel()
	assert.Equal(t, clocktime.Weekly{On: true, Day: time.Monday, At: clocktime.Of(9, 0)}, follows.DefaultDigest)
	assert.Equal(t, "mon 09:00", follows.Rules{}.Usual().String())
}

// TestNoSlack: the follow domain imports no Slack package, not even
// through another domain.
func TestNoSlack(t *testing.T) {
	t.Parallel()
	out, err := exec.Command("go", "list", "-deps", ".").Output()
	if err != nil {
		t.Skipf("go list: %v", err)
	}
	for _, dep := range strings.Fields(string(out)) {
		if strings.Contains(dep, "slack") || strings.HasSuffix(dep, "recordsbot/blocks") || strings.HasSuffix(dep, "recordsbot/bot") {
			t.Errorf("follows depends on %s", dep)
		}
	}
}
