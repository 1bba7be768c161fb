package rulecheck

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// root is the repository, from this package's directory.
const root = "../.."

// restatement is a rule's text that may appear only where the rule is
// decided: in files whose path starts with one of home.
type restatement struct {
	name string
	re   *regexp.Regexp
	home []string
	ask  string // what to call instead
}

var restatements = []restatement{
	{
		name: "which statuses are still to do",
		re:   regexp.MustCompile(`StatusOpen,\s*apiclient\.StatusInProgress|StatusOpen \|\| .*StatusInProgress`),
		home: []string{"actions/status.go", "apiclient/"},
		ask:  "actions.StillToDo or actions.Active",
	},
	{
		name: "who may see other people's actions",
		// CanSeeOthers joined to CanSee in one condition is CanSeeHistory
		// written out again.
		re:   regexp.MustCompile(`Visibility\(\) == actions\.Visible|\.IsAdmin\(|CanSeeOthers\([^)]*\)\s*(&&|\|\|).*CanSee\(`),
		home: []string{"actions/"},
		ask:  "actions.Service.CanSee, CanSeeOthers, CanSeeHistory, CanSeeOthersOnceKnown or Admin (which fails closed)",
	},
	{
		name: "who may change an action",
		re:   regexp.MustCompile(`Owns\([^)]*\)\s*\|\|.*Admin\(|Admin\([^)]*\)\s*\|\|.*Owns\(`),
		home: []string{"actions/service.go"},
		ask:  "actions.Service.CanChange",
	},
	{
		name: "who may snooze an action",
		re:   regexp.MustCompile(`Owns\([^)]*\) && (actions\.)?StillToDo|StillToDo\([^)]*\) && [a-z]+\.Owns\(`),
		home: []string{"actions/view.go"},
		ask:  "actions.CanSnooze",
	},
	{
		name: "the order of actions",
		re:   regexp.MustCompile(`\.Overdue && !b\.Overdue|Deadline\.Before\(b\.Deadline\)|Deadline\.IsZero\(\), b\.Deadline\.IsZero\(\)`),
		home: []string{"actions/order.go"},
		ask:  "actions.CompareUrgency",
	},
	{
		name: "the language a person reads",
		re:   regexp.MustCompile(`lang\.ForLocale\(`),
		home: []string{"actions/service.go", "internal/lang/", "doctor/", "demo/"},
		ask:  "actions.Service.ReaderLanguage, which holds ORG_LANGUAGE",
	},
	{
		name: "a status change at the Slack edge",
		re:   regexp.MustCompile(`\.actions\.SetStatus\(`),
		home: []string{"bot/status.go"},
		ask:  "actionsUI.setStatus, which also ends the action's snoozes",
	},
	{
		name: "the way into a page of actions",
		re:   regexp.MustCompile(`\.ListCached\(`),
		home: []string{"actions/", "bot/commands_actions.go"},
		ask:  "actionsUI.pageSource (fromMemory for a page from memory alone)",
	},
	{
		name: "what an action's row shows",
		re:   regexp.MustCompile(`(?:^|[^\].\w])(?:blocks\.)?ActionRow\{|"row\.(?:due|no_deadline|assigned_to|untitled|overdue|line\.\w+)"`),
		home: []string{"blocks/rowof.go", "blocks/row.go"},
		ask:  "blocks.RowOf for the row and blocks/row.go's writeRow to draw it; what differs per surface is a field of ActionRow or a rowForm",
	},
	{
		name: "the follow rules, built",
		re:   regexp.MustCompile(`follows\.Rules\{`),
		home: []string{"follows/"},
		ask:  "follows.NewRules over the one follows.Settings the bot and the watcher share",
	},
	{
		name: "what a follow hears",
		re:   regexp.MustCompile(`FollowDefaults\{\}\)?\.Hears\(`),
		home: []string{"follows/", "store/"},
		ask:  "follows.Rules.Hears or HearsDigest",
	},
	{
		name: "the default times",
		re:   regexp.MustCompile(`clocktime\.Of\(9, ?0\)`),
		home: []string{"store/defaults.go", "follows/rules.go"},
		ask:  "store.DefaultRemindAt or follows.DefaultDigest",
	},
	{
		name: "exactly once",
		re:   regexp.MustCompile(`slackapi\.FindKeyed\(|IncludeAllMetadata: *true`),
		home: []string{"internal/once/", "internal/slackapi/", "store/"},
		ask:  "internal/once: Poster.Post, or PostNow for a post a person waits on",
	},
	{
		name: "redrawing the message a click came from",
		re:   regexp.MustCompile(`\.(UpdateMessageContext|updateMessage)\(ctx|ReplaceOriginal = |ReplaceRow\(`),
		home: []string{"bot/interactions.go", "blocks/", "watch/", "internal/slackapi/"},
		ask:  "clicks.redraw (and interaction.rowReplaced for a row)",
	},
	{
		name: "Block Kit's limits",
		re:   regexp.MustCompile(`len\([^)]*\) [<>]=? (2000|3000|255|150|75)\b|(?i)maxMetadataIDs\s*=|MaxModal\w*\s*=|truncate\(.*, (24|75|150|255|2000|3000)\)`),
		home: []string{"blocks/limits.go"},
		ask:  "the constants of blocks/limits.go",
	},
	{
		name: "what kind of conversation a request came from",
		re:   regexp.MustCompile(`== "directmessage"|"mpdm-"\)|HasPrefix\([^,]*[Cc]hannel(ID)?, "D"\)`),
		// The fake Slack and the demo's console model Slack's side.
		home: []string{"bot/conversation.go", "internal/slackapi/", "demo/"},
		ask:  "bot's conversationOf",
	},
	{
		name: "which actions arose at a meeting",
		re:   regexp.MustCompile(`\.MeetingID [!=]= [a-z]\w*\.(ID|Reference)\b`),
		home: []string{"actions/"},
		ask:  "actions.AroseAt",
	},
	{
		name: "what a Slack ID looks like",
		re:   regexp.MustCompile("\\[0\\] [!=]= '[UWCGD]'|`\\^?\\[[UWCG]{2}\\]"),
		// apiclient reads Slack IDs in record text by its own, stricter
		// rule (a digit, so "UNASSIGNED" is a name); the fakes are Slack.
		home: []string{"internal/slackapi/", "apiclient/"},
		ask:  "slackapi.IsUserID or IsChannelID",
	},
	{
		// An input's limit is what the domain behind it accepts, so the
		// form never takes what the domain then refuses.
		name: "how much an input takes",
		re:   regexp.MustCompile(`\.MaxLength\s*=\s*[0-9]`),
		ask:  "the domain's own limit (topics.MaxQueryRunes) or a named constant beside the builder",
	},
}

// history is an issue number in a comment: the comment says why, git
// says when.
var history = regexp.MustCompile(`(?i)//.*\bissues? #?\d+`)

func TestRulesWrittenOnce(t *testing.T) {
	t.Parallel()
	files := sourceFiles(t)
	for _, r := range restatements {
		for path, src := range files {
			if hasPrefix(path, r.home) {
				continue
			}
			for i, line := range strings.Split(src, "\n") {
				if isComment(line) {
					continue
				}
				assert.False(t, r.re.MatchString(line), "%s:%d restates %s; call %s instead:\n%s", path, i+1, r.name, r.ask, line)
			}
		}
	}
}

// retired are names that did not say what they name, with the one that
// does: a newcomer reads the new one and never meets the old.
var retired = []struct {
	re   *regexp.Regexp
	name string
}{
	{regexp.MustCompile(`(?i)doubtful`), "unheld (the budget for lookups of names the bot does not hold)"},
}

// TestRetiredNames: a retired name comes back neither in the code nor in
// docs/.
func TestRetiredNames(t *testing.T) {
	t.Parallel()
	for path, src := range sourceAndDocs(t) {
		for i, line := range strings.Split(src, "\n") {
			for _, r := range retired {
				assert.False(t, r.re.MatchString(line), "%s:%d uses a retired name; say %s:\n%s", path, i+1, r.name, line)
			}
		}
	}
}

// mergeMarker is a line git leaves where a merge needs a person.
var mergeMarker = regexp.MustCompile(`^(<<<<<<<|>>>>>>>) `)

// TestNoMergeMarkers: a merge left half done never lands, in code or in
// docs/ (code would not build; a doc would read on regardless).
func TestNoMergeMarkers(t *testing.T) {
	t.Parallel()
	for path, src := range sourceAndDocs(t) {
		for i, line := range strings.Split(src, "\n") {
			assert.False(t, mergeMarker.MatchString(line), "%s:%d: a merge conflict left in:\n%s", path, i+1, line)
		}
	}
}

// sourceAndDocs is sourceFiles and docs/*.md, by slash path from root.
func sourceAndDocs(t *testing.T) map[string]string {
	t.Helper()
	files := sourceFiles(t)
	docs, err := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	require.NoError(t, err)
	require.NotEmpty(t, docs)
	for _, p := range docs {
		b, err := os.ReadFile(p)
		require.NoError(t, err)
		files["docs/"+filepath.Base(p)] = string(b)
	}
	return files
}

// TestNoHistoryInComments: no comment in the module's Go, tests
// included, names an issue.
func TestNoHistoryInComments(t *testing.T) {
	t.Parallel()
	for path, src := range goFiles(t) {
		for i, line := range strings.Split(src, "\n") {
			assert.False(t, history.MatchString(line), "%s:%d: a comment names an issue; say why instead (history stays in git):\n%s", path, i+1, line)
		}
	}
}

// TestNoHistoryInDocs: the docs describe the present; an issue number
// says when something was done, which git already says.
func TestNoHistoryInDocs(t *testing.T) {
	t.Parallel()
	n := 0
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if name := d.Name(); p != root && (strings.HasPrefix(name, ".") || name == "node_modules" || name == "testdata") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(p, ".md") {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		n++
		for i, line := range strings.Split(string(b), "\n") {
			assert.False(t, docHistory.MatchString(line), "%s:%d: a doc names an issue; describe what is, history stays in git:\n%s", p, i+1, line)
		}
		return nil
	})
	require.NoError(t, err)
	require.NotZero(t, n, "the walk must see the docs")
}

// docHistory is an issue number in a doc.
var docHistory = regexp.MustCompile(`(?i)\bissues? #?\d+`)

// TestChecksBite: each pattern finds the restatement it was written for,
// so a check that could never fail is caught.
func TestChecksBite(t *testing.T) {
	t.Parallel()
	samples := map[string][]string{
		"which statuses are still to do": {`for _, st := range []apiclient.Status{apiclient.StatusOpen, apiclient.StatusInProgress} {`},
		"who may see other people's actions": {
			`case meErr != nil && (u.dom.Visibility() == actions.VisibleOrganisation || u.dom.IsAdmin(me.ID)):`,
			`if !p.actions.CanSeeOthers(me) && !(found && p.actions.CanSee(me, a.Assignee)) {`,
		},
		"who may change an action": {`if !(me.Owns(a.Assignee) || u.actions.Admin(me)) {`},
		"who may snooze an action": {`if !found || !(me.Owns(a.Assignee) && actions.StillToDo(a.Status)) {`},
		"the order of actions":     {`case a.Overdue && !b.Overdue:`},
		"Block Kit's limits": {
			`if err != nil || len(b) > 2000 {`,
			`Title: slack.NewTextBlockObject(slack.PlainTextType, truncate(lg.T("topic.modal_title"), 24), false, false),`,
		},
		"which actions arose at a meeting": {
			`if meeting != nil && a.MeetingID != meeting.ID && (meeting.Reference == "" || a.MeetingID != meeting.Reference) {`,
			`if a.MeetingID == m.ID || !actions.StillToDo(a.Status) || minutes.CommitteeKey(p.committeeOf(ctx, a)) != f.CommitteeKey {`,
		},
		"what a Slack ID looks like": {
			"var slackUserID = regexp.MustCompile(`^[UW][A-Z0-9]+$`)",
			`	if id == "" || id[0] != 'U' && id[0] != 'W' {`,
		},
		"how much an input takes": {`in.MaxLength = 200`},
		"what kind of conversation a request came from": {
			`case strings.HasPrefix(channelID, "D") || channelName == "directmessage":`,
			`if strings.HasPrefix(cmd.ChannelName, "mpdm-") {`,
		},
		"a status change at the Slack edge": {`a, oc, err := p.acts.actions.SetStatus(ctx, user, id, to)`},
		"the language a person reads":       {`return lang.ForLocale(m.Locale, p.cfg.Language)`},
		"the way into a page of actions":    {`if src.list, ok = u.actions.ListCached(apiclient.Status(q.Status)); !ok {`},
		"what an action's row shows": {
			`it := blocks.ActionRow{ID: a.ID, Title: a.Title, Overdue: overdue}`,
			`notes = append(notes, lg.F("row.line.was_due", "date", d))`,
		},
		"the follow rules, built": {`rules: follows.Rules{Defaults: cfg.FollowDefaults, Digest: &cfg.Digest, OrgLanguage: cfg.Language}}`},
		"what a follow hears":     {`if i >= 0 && !(store.FollowDefaults{}).Hears(follows[i].Choices, store.HearBriefs) {`},
		"redrawing the message a click came from": {
			`if err := c.updateMessage(ctx, in.channelID(), in.Message.TS, in.Message.Text, bl); err != nil && !echoUnreadable(err) {`,
			`_, _, _, err := c.slack.UpdateMessageContext(ctx, channel, ts, slack.MsgOptionText(text, false), slack.MsgOptionBlocks(bl...))`,
			`if out, ok := blocks.ReplaceRow(in.Message.Blocks, row); ok {`,
		},
		"exactly once":      {`_, found, err := slackapi.FindKeyed(lctx, c.slack, channel, key, shareHistoryDepth)`},
		"the default times": {`DigestDefault: &clocktime.Weekly{On: true, Day: time.Monday, At: clocktime.Of(9, 0)},`},
	}
	for _, r := range restatements {
		require.NotEmpty(t, samples[r.name], "%s: give a sample the pattern must find", r.name)
		for _, sample := range samples[r.name] {
			assert.True(t, r.re.MatchString(sample), "%s: the pattern misses %q", r.name, sample)
		}
	}
	assert.True(t, history.MatchString(`// reminders of it, and ends with it theirs (issue 31). A`))
	assert.True(t, docHistory.MatchString(`What people choose between acting and ignoring (issue 31). All of it is`))
	assert.True(t, retired[0].re.MatchString(`Doubtful: s.public.doubtfulContext,`))
	assert.True(t, mergeMarker.MatchString(`<<<<<<< HEAD`))
}

// sourceFiles is every non-test Go file of the module outside testdata
// and this package, by slash path from root.
func sourceFiles(t *testing.T) map[string]string {
	t.Helper()
	out := goFiles(t)
	for path := range out {
		if strings.HasSuffix(path, "_test.go") {
			delete(out, path)
		}
	}
	require.NotEmpty(t, out["actions/status.go"], "the walk must see the module")
	return out
}

// goFiles is every Go file of the module, tests included, outside
// testdata and this package, by slash path from root.
func goFiles(t *testing.T) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel := filepath.ToSlash(strings.TrimPrefix(p, root+string(filepath.Separator)))
		if d.IsDir() {
			if strings.HasPrefix(d.Name(), ".") && p != root || d.Name() == "testdata" || rel == "tools/rulecheck" {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(p, ".go") {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		out[rel] = string(b)
		return nil
	})
	require.NoError(t, err)
	require.NotEmpty(t, out["actions/status_test.go"]+out["actions/view_test.go"], "the walk must see the tests")
	return out
}

func hasPrefix(path string, prefixes []string) bool {
	for _, p := range prefixes {
		if strings.HasPrefix(path, p) {
			return true
		}
	}
	return false
}

func isComment(line string) bool {
	return strings.HasPrefix(strings.TrimSpace(line), "//")
}
