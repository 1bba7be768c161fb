package bot_test

import (
	"bufio"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/gorilla/websocket"
	"github.com/stretchr/testify/require"
)

// browser is headless Chromium driven over the Chrome DevTools Protocol
// (https://chromedevtools.github.io/devtools-protocol/), so a test can
// load a page at a given width and read what a person would meet: the
// console's errors, what the Content-Security-Policy refused, how wide
// the page is laid out, and a screenshot.
type browser struct {
	t    *testing.T
	conn *websocket.Conn

	mu      sync.Mutex
	nextID  int
	waiting map[int]chan cdpMessage
	events  chan cdpMessage
}

type cdpMessage struct {
	ID        int             `json:"id,omitempty"`
	Method    string          `json:"method,omitempty"`
	Params    json.RawMessage `json:"params,omitempty"`
	SessionID string          `json:"sessionId,omitempty"`
	Result    json.RawMessage `json:"result,omitempty"`
	Error     *struct {
		Message string `json:"message"`
	} `json:"error,omitempty"`
}

// devtoolsRE is the line Chromium prints when its DevTools endpoint is up.
var devtoolsRE = regexp.MustCompile(`DevTools listening on (ws://\S+)`)

// startBrowser starts Chromium with the flags CI uses (no sandbox as
// root, no network of its own, a fresh profile) and connects to it.
func startBrowser(ctx context.Context, t *testing.T, chromium string) *browser {
	t.Helper()
	// The profile is not t.TempDir(): Chromium's helper processes (renderer,
	// crashpad) can still be writing into it for a moment after the browser
	// is killed, and t.TempDir's own cleanup then fails the test with
	// "directory not empty" (seen in CI). The whole process group is killed
	// and the profile removed after, trying again while the helpers exit.
	profile, err := os.MkdirTemp("", "recordsbot-chromium-")
	require.NoError(t, err)
	t.Cleanup(func() {
		for range 50 {
			if os.RemoveAll(profile) == nil {
				return
			}
			time.Sleep(100 * time.Millisecond)
		}
		t.Logf("chromium's profile %s was still in use; left behind", profile)
	})
	cmd := exec.CommandContext(ctx, chromium,
		"--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync",
		"--hide-scrollbars", "--force-device-scale-factor=1",
		"--remote-debugging-port=0", "--user-data-dir="+profile, "about:blank")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	stderr, err := cmd.StderrPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	t.Cleanup(func() {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) // the browser and its helpers
		_ = cmd.Wait()
	})
	found := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			if m := devtoolsRE.FindStringSubmatch(sc.Text()); m != nil {
				select {
				case found <- m[1]:
				default:
				}
			}
		}
	}()
	var endpoint string
	select {
	case endpoint = <-found:
	case <-time.After(30 * time.Second):
		t.Fatal("chromium did not open its DevTools endpoint within 30 s")
	}
	conn, _, err := websocket.DefaultDialer.DialContext(ctx, endpoint, nil)
	require.NoError(t, err)
	b := &browser{t: t, conn: conn, waiting: map[int]chan cdpMessage{}, events: make(chan cdpMessage, 1024)}
	t.Cleanup(func() { conn.Close() })
	go b.read()
	return b
}

// read routes answers to their callers and events to b.events.
func (b *browser) read() {
	for {
		var m cdpMessage
		if err := b.conn.ReadJSON(&m); err != nil {
			close(b.events)
			return
		}
		if m.ID != 0 {
			b.mu.Lock()
			ch := b.waiting[m.ID]
			delete(b.waiting, m.ID)
			b.mu.Unlock()
			if ch != nil {
				ch <- m
			}
			continue
		}
		select {
		case b.events <- m:
		default: // a test that reads no events drops them
		}
	}
}

// call sends method to the session (the browser when "") and returns its
// result.
func (b *browser) call(session, method string, params any) json.RawMessage {
	b.t.Helper()
	raw, err := json.Marshal(params)
	require.NoError(b.t, err)
	b.mu.Lock()
	b.nextID++
	id := b.nextID
	ch := make(chan cdpMessage, 1)
	b.waiting[id] = ch
	err = b.conn.WriteJSON(cdpMessage{ID: id, Method: method, Params: raw, SessionID: session})
	b.mu.Unlock()
	require.NoError(b.t, err)
	select {
	case m := <-ch:
		if m.Error != nil {
			b.t.Fatalf("%s: %s", method, m.Error.Message)
		}
		return m.Result
	case <-time.After(30 * time.Second):
		b.t.Fatalf("%s: no answer within 30 s", method)
	}
	return nil
}

// pageVisit is what one visit to a page showed.
type pageVisit struct {
	// Problems are console errors, uncaught exceptions, failed loads and
	// what the Content-Security-Policy refused.
	Problems []string
	// ScrollWidth and Width: the page's laid-out width and the screen's.
	ScrollWidth, Width int
	// FontSize is the body's computed font size ("17px"); Styled is set
	// when the stylesheet applied (the site bar has its background).
	FontSize string
	Styled   bool
	PNG      []byte
}

// visit opens url in a new tab width px wide (a phone's viewport when
// under 500) and reports what it showed.
func (b *browser) visit(url string, width, height int) pageVisit {
	b.t.Helper()
	var target struct {
		TargetID string `json:"targetId"`
	}
	require.NoError(b.t, json.Unmarshal(b.call("", "Target.createTarget", map[string]any{"url": "about:blank"}), &target))
	var attached struct {
		SessionID string `json:"sessionId"`
	}
	require.NoError(b.t, json.Unmarshal(b.call("", "Target.attachToTarget", map[string]any{"targetId": target.TargetID, "flatten": true}), &attached))
	s := attached.SessionID
	defer b.call("", "Target.closeTarget", map[string]any{"targetId": target.TargetID})
	for _, m := range []string{"Page.enable", "Runtime.enable", "Log.enable"} {
		b.call(s, m, map[string]any{})
	}
	b.call(s, "Emulation.setDeviceMetricsOverride", map[string]any{
		"width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 500,
	})
	b.call(s, "Page.navigate", map[string]any{"url": url})

	var v pageVisit
	deadline := time.After(30 * time.Second)
	loaded := false
	for !loaded {
		select {
		case e, ok := <-b.events:
			require.True(b.t, ok, "the browser went away")
			if e.SessionID != s {
				continue
			}
			switch e.Method {
			case "Page.loadEventFired":
				loaded = true
			default:
				if p := problem(e); p != "" {
					v.Problems = append(v.Problems, p)
				}
			}
		case <-deadline:
			b.t.Fatalf("%s did not load within 30 s", url)
		}
	}
	// Late messages (a refused stylesheet is reported around load) get a
	// moment to arrive.
	settle := time.After(300 * time.Millisecond)
	for done := false; !done; {
		select {
		case e := <-b.events:
			if p := problem(e); e.SessionID == s && p != "" {
				v.Problems = append(v.Problems, p)
			}
		case <-settle:
			done = true
		}
	}

	// DevTools evaluates outside the page's Content-Security-Policy: the
	// page itself still runs no script.
	var eval struct {
		Result struct {
			Value string `json:"value"`
		} `json:"result"`
	}
	require.NoError(b.t, json.Unmarshal(b.call(s, "Runtime.evaluate", map[string]any{
		"returnByValue": true,
		"expression": `JSON.stringify({sw: document.documentElement.scrollWidth, w: window.innerWidth,
			fs: getComputedStyle(document.body).fontSize,
			bar: getComputedStyle(document.querySelector('.site-header')).backgroundColor})`,
	}), &eval))
	var got struct {
		SW  int    `json:"sw"`
		W   int    `json:"w"`
		FS  string `json:"fs"`
		Bar string `json:"bar"`
	}
	require.NoError(b.t, json.Unmarshal([]byte(eval.Result.Value), &got), eval.Result.Value)
	v.ScrollWidth, v.Width, v.FontSize = got.SW, got.W, got.FS
	v.Styled = got.Bar != "" && got.Bar != "rgba(0, 0, 0, 0)"

	var shot struct {
		Data string `json:"data"`
	}
	require.NoError(b.t, json.Unmarshal(b.call(s, "Page.captureScreenshot", map[string]any{"format": "png"}), &shot))
	png, err := base64.StdEncoding.DecodeString(shot.Data)
	require.NoError(b.t, err)
	v.PNG = png
	return v
}

// problem is what an event says went wrong on the page, or "".
func problem(e cdpMessage) string {
	switch e.Method {
	case "Runtime.exceptionThrown":
		return "exception: " + string(e.Params)
	case "Runtime.consoleAPICalled":
		var p struct {
			Type string `json:"type"`
		}
		_ = json.Unmarshal(e.Params, &p)
		if p.Type == "error" || p.Type == "assert" {
			return "console." + p.Type + ": " + string(e.Params)
		}
	case "Log.entryAdded":
		var p struct {
			Entry struct {
				Level, Source, Text, URL string
			} `json:"entry"`
		}
		_ = json.Unmarshal(e.Params, &p)
		if p.Entry.Level == "error" || strings.Contains(p.Entry.Text, "Refused to") {
			return fmt.Sprintf("%s %s: %s %s", p.Entry.Level, p.Entry.Source, p.Entry.Text, p.Entry.URL)
		}
	}
	return ""
}
