package bot_test

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/recordsbot/recordsbot/bot"
	"github.com/recordsbot/recordsbot/internal/lang"
	"github.com/recordsbot/recordsbot/internal/pagetest"
)

// The accessibility check of the public pages
// (docs/accessibility.md): axe-core, Deque's rules engine, run inside
// headless Chromium on every public page, in every shipped language, at a
// desktop width and at 390 px, in light and dark colours, must find no
// WCAG 2.0/2.1/2.2 A or AA violation nor any of its best practices
// (landmarks, one main, headings) broken; then each page is walked with
// the keyboard alone.

// wcagTags are the axe-core rule tags checked: WCAG 2.2 AA is the sum of
// the A and AA rules of 2.0, 2.1 and 2.2; best-practice adds the
// landmark and heading rules WCAG leaves to techniques.
var wcagTags = []string{"wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"}

// axeSource is axe-core's browser bundle from tools/publiccheck's
// committed lock file (npm ci --prefix tools/publiccheck).
func axeSource(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "tools", "publiccheck", "node_modules", "axe-core", "axe.min.js"))
	require.NoError(t, err, "axe-core is not installed: npm ci --prefix tools/publiccheck")
	return string(b)
}

// tab is one open page in the browser, its DevTools session kept for
// evaluating in it and pressing keys.
type tab struct {
	b         *browser
	session   string
	target    string
	url       string
	loadEvent chan struct{}
}

// open loads url in a new tab width × height px, in dark colours when
// dark is set, and waits for it to load.
func (b *browser) open(url string, width, height int, dark bool) *tab {
	b.t.Helper()
	var target struct {
		TargetID string `json:"targetId"`
	}
	require.NoError(b.t, json.Unmarshal(b.call("", "Target.createTarget", map[string]any{"url": "about:blank"}), &target))
	var attached struct {
		SessionID string `json:"sessionId"`
	}
	require.NoError(b.t, json.Unmarshal(b.call("", "Target.attachToTarget", map[string]any{"targetId": target.TargetID, "flatten": true}), &attached))
	tb := &tab{b: b, session: attached.SessionID, target: target.TargetID, url: url}
	s := tb.session
	b.call(s, "Page.enable", map[string]any{})
	b.call(s, "Emulation.setDeviceMetricsOverride", map[string]any{"width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 500})
	scheme := "light"
	if dark {
		scheme = "dark"
	}
	b.call(s, "Emulation.setEmulatedMedia", map[string]any{"features": []map[string]string{{"name": "prefers-color-scheme", "value": scheme}}})
	b.call(s, "Page.navigate", map[string]any{"url": url})
	deadline := time.After(30 * time.Second)
	for {
		select {
		case e, ok := <-b.events:
			require.True(b.t, ok, "the browser went away")
			if e.SessionID == s && e.Method == "Page.loadEventFired" {
				return tb
			}
		case <-deadline:
			b.t.Fatalf("%s did not load within 30 s", url)
		}
	}
}

func (tb *tab) close() { tb.b.call("", "Target.closeTarget", map[string]any{"targetId": tb.target}) }

// eval evaluates expr in the page (DevTools runs it outside the page's
// Content-Security-Policy; the page itself runs no script), waiting for
// a promise, and returns its value, which must be a string.
func (tb *tab) eval(expr string) string {
	tb.b.t.Helper()
	var out struct {
		Result struct {
			Value string `json:"value"`
		} `json:"result"`
		ExceptionDetails json.RawMessage `json:"exceptionDetails"`
	}
	raw := tb.b.call(tb.session, "Runtime.evaluate", map[string]any{"expression": expr, "returnByValue": true, "awaitPromise": true})
	require.NoError(tb.b.t, json.Unmarshal(raw, &out))
	require.Empty(tb.b.t, out.ExceptionDetails, "evaluating in %s", tb.url)
	return out.Result.Value
}

// press presses and releases a key, as a keyboard does.
func (tb *tab) press(key string, code int) {
	for _, typ := range []string{"keyDown", "keyUp"} {
		tb.b.call(tb.session, "Input.dispatchKeyEvent", map[string]any{
			"type": typ, "key": key, "code": key, "windowsVirtualKeyCode": code, "nativeVirtualKeyCode": code,
		})
	}
}

// axeViolation is one rule axe-core found broken, with where.
type axeViolation struct {
	ID, Impact, Help string
	Nodes            []string
}

// axe runs axe-core on the page and returns the violations: of the rules
// tagged wcagTags, or of rule alone when it is not "".
func (tb *tab) axe(source, rule string) []axeViolation {
	tb.b.t.Helper()
	if tb.eval(`typeof axe`) != "object" {
		tb.eval(source + "\n;'loaded'")
	}
	only, _ := json.Marshal(map[string]any{"type": "tag", "values": wcagTags})
	if rule != "" {
		only, _ = json.Marshal(map[string]any{"type": "rule", "values": []string{rule}})
	}
	got := tb.eval(`axe.run(document, {runOnly: ` + string(only) + `, resultTypes: ['violations']})
		.then(r => JSON.stringify(r.violations.map(v => ({ID: v.id, Impact: v.impact, Help: v.help,
			Nodes: v.nodes.map(n => n.target.join(' ') + ': ' + n.failureSummary)}))))`)
	var out []axeViolation
	require.NoError(tb.b.t, json.Unmarshal([]byte(got), &out), got)
	return out
}

// focusStop is where one press of Tab left the focus.
type focusStop struct {
	// Index is the element's place among the page's focusable elements,
	// -1 when it is none of them (the body: focus left the page).
	Index int `json:"index"`
	What  string
	// Outline is the focus ring as drawn: its computed style and width.
	OutlineStyle string  `json:"outlineStyle"`
	OutlineWidth float64 `json:"outlineWidth"`
	// InView: the focused element has a size and is (at least partly) on
	// screen.
	InView bool `json:"inView"`
}

// focusables is the page's keyboard-reachable elements, in document order.
const focusables = `Array.from(document.querySelectorAll('a[href], button, input:not([type=hidden]), select, textarea, [tabindex]:not([tabindex="-1"])'))`

// focus reports the focused element.
func (tb *tab) focus() focusStop {
	tb.b.t.Helper()
	got := tb.eval(`(() => {
		const el = document.activeElement, all = ` + focusables + `;
		const cs = getComputedStyle(el), r = el.getBoundingClientRect();
		return JSON.stringify({index: all.indexOf(el), What: el.tagName.toLowerCase() + (el.id ? '#' + el.id : '') + ' ' + (el.textContent || el.value || '').trim().slice(0, 40),
			outlineStyle: cs.outlineStyle, outlineWidth: parseFloat(cs.outlineWidth) || 0,
			inView: r.width > 0 && r.height > 0 && r.bottom > 0 && r.top < innerHeight && r.right > 0 && r.left < innerWidth});
	})()`)
	var f focusStop
	require.NoError(tb.b.t, json.Unmarshal([]byte(got), &f), got)
	return f
}

// a11yPage is one page the accessibility check visits.
type a11yPage struct{ name, path string }

// TestPublicPagesAccessibility runs axe-core and the keyboard walk over
// every public page. CI runs it (.ci/run installs Chromium and
// tools/publiccheck, and sets RECORDSBOT_BROWSER=1); elsewhere:
//
//	npm ci --prefix tools/publiccheck
//	RECORDSBOT_BROWSER=1 go test ./bot -run TestPublicPagesAccessibility
func TestPublicPagesAccessibility(t *testing.T) {
	if os.Getenv("RECORDSBOT_BROWSER") == "" {
		t.Skip("set RECORDSBOT_BROWSER=1 to run the headless Chromium accessibility check")
	}
	t.Parallel()
	chromium, err := exec.LookPath("chromium")
	require.NoError(t, err, "RECORDSBOT_BROWSER is set but chromium is not installed (apt-get install chromium)")
	source := axeSource(t)

	st := openTestStore(t, "sqlite")
	h := newSearchHarness(t, st)
	h2 := newHarness(t, withConfig(func(c *bot.Config) { c.OrgName = "Riverside Community Trust"; c.A11yContact = "access@example.org" }))
	draft := h2.latestPublished("Finance")
	approved, _ := h2.demoMinutes(pagetest.PlainApproved)
	pages := []a11yPage{
		{"archive", "/minutes"},
		{"archive of a committee", "/minutes?committee=Finance"},
		{"ambiguous committee", "/minutes?committee=F"},
		{"a draft's minutes page", pagetest.MinutesPath(draft.ID)},
		{"an approved minutes page", pagetest.MinutesPath(approved.ID)},
		{"a missing page", pagetest.MinutesPath("mtg_nope")},
		{"accessibility statement", "/accessibility"},
	}
	ctx := t.Context()
	b := startBrowser(ctx, t, chromium)
	total := 0
	// Each page in English at a desktop width, at a phone's and in dark
	// colours (where only contrast can change); in the other languages,
	// whose longer words and other punctuation change the layout, at both
	// widths for the pages with most words. axe-core takes 1–4 s a page,
	// so this is the matrix, not every page in every variant.
	type variant struct {
		l        lang.Lang
		w, h     int
		dark     bool
		onlyRule string
	}
	check := func(base string, p a11yPage, variants []variant) {
		for _, v := range variants {
			sep := "?"
			if strings.Contains(p.path, "?") {
				sep = "&"
			}
			tb := b.open(base+p.path+sep+"lang="+v.l.Code(), v.w, v.h, v.dark)
			where := fmt.Sprintf("%s in %s at %d px", p.name, v.l, v.w)
			if v.dark {
				where += " in dark colours"
			}
			for _, viol := range tb.axe(source, v.onlyRule) {
				total++
				t.Errorf("%s: axe-core %s (%s): %s\n\t%s", where, viol.ID, viol.Impact, viol.Help, strings.Join(viol.Nodes, "\n\t"))
			}
			if v.l == lang.English && !v.dark {
				walkKeyboard(t, tb, where)
			}
			tb.close()
		}
	}
	english := []variant{{l: lang.English, w: 1100, h: 900}, {l: lang.English, w: 390, h: 844}, {l: lang.English, w: 1100, h: 900, dark: true, onlyRule: "color-contrast"}}
	var others []variant
	for _, l := range lang.Shipped()[1:] {
		others = append(others, variant{l: l, w: 1100, h: 900}, variant{l: l, w: 390, h: 844})
	}
	for _, p := range pages {
		check(h2.http.URL, p, english)
	}
	for _, p := range []a11yPage{pages[0], pages[3], pages[6]} {
		check(h2.http.URL, p, others)
	}
	check(h.http.URL, a11yPage{"search results", "/minutes?q=budget"}, english)
	check(h.http.URL, a11yPage{"search without results", "/minutes?q=zanzibar"}, english[:1])
	t.Logf("axe-core %s: %d violations", wcagTags, total)
}

// walkKeyboard tabs through the page from its top: the first stop is the
// skip link, shown on screen; following it puts the focus on the main
// content; then every link and control is reached in document order,
// each on screen with a visible focus ring, until the focus leaves the
// page.
func walkKeyboard(t *testing.T, tb *tab, where string) {
	t.Helper()
	var count int
	require.NoError(t, json.Unmarshal([]byte(tb.eval(focusables+`.length.toString()`)), &count))
	require.Positive(t, count, where)

	var seen []int
	for i := range count + 2 {
		tb.press("Tab", 9)
		f := tb.focus()
		if i == 0 {
			assert.Equal(t, 0, f.Index, "%s: the first Tab reaches the skip link, got %s", where, f.What)
		}
		if f.Index < 0 {
			break // past the last: the focus left the page
		}
		seen = append(seen, f.Index)
		assertFocusRing(t, f, where)
		assert.True(t, f.InView, "%s: %s is on screen when focused", where, f.What)
	}
	want := make([]int, count)
	for i := range want {
		want[i] = i
	}
	assert.Equal(t, want, seen, "%s: Tab reaches every link and control once, in document order", where)

	// The skip link, followed, puts the focus on the main content.
	tb.eval(`document.querySelector('.skip-link').focus(); 'ok'`)
	tb.press("Enter", 13)
	assert.Equal(t, "main#content", tb.eval(`document.activeElement.tagName.toLowerCase() + '#' + document.activeElement.id`), "%s: the skip link moves the focus to the main content", where)
}

// assertFocusRing checks that the focused element draws a focus
// indicator: an outline at least 2 px wide (WCAG 2.4.7, and 2.4.13's
// 2 px for AAA, which the stylesheet's 3 px meets).
func assertFocusRing(t *testing.T, f focusStop, where string) {
	t.Helper()
	assert.True(t, f.OutlineStyle != "none" && f.OutlineWidth >= 2, "%s: %s shows a focus ring (outline %s %.0fpx)", where, f.What, f.OutlineStyle, f.OutlineWidth)
}
