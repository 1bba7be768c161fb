package bot

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/slack-go/slack"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/recordsbot/recordsbot/blocks"
)

// marshalled is a reply as encoding/json marshals its exported fields,
// which is what reply.appendJSON must write.
func marshalled(t *testing.T, r *reply) string {
	t.Helper()
	type plain struct {
		ResponseType    string        `json:"response_type,omitempty"`
		ReplaceOriginal bool          `json:"replace_original,omitempty"`
		Text            string        `json:"text"`
		Blocks          []slack.Block `json:"blocks,omitempty"`
	}
	b, err := json.Marshal(plain{r.ResponseType, r.ReplaceOriginal, r.Text, r.Blocks})
	require.NoError(t, err)
	return string(b)
}

// assertEncodes checks every way a reply is written against encoding/json.
func assertEncodes(t *testing.T, r *reply) {
	t.Helper()
	want := marshalled(t, r)
	direct, err := r.appendJSON(nil)
	require.NoError(t, err)
	assert.Equal(t, replacementsAlike(want), replacementsAlike(string(direct)), "appendJSON (got) against encoding/json (want)")
	copied := *r
	enc, err := copied.encode()
	require.NoError(t, err)
	assert.Equal(t, replacementsAlike(want), replacementsAlike(string(enc)), "encode")
}

// replacementsAlike writes every U+FFFD of s as the escape \ufffd. Go
// releases disagree on how encoding/json writes invalid UTF-8: go1.26
// escapes it (\ufffd), go1.27 writes the replacement character itself.
// Both decode to the same string, so the comparison with encoding/json
// ignores that one difference and no other.
func replacementsAlike(s string) string { return strings.ReplaceAll(s, "\uFFFD", `\ufffd`) }

// TestReplyEncodingMatchesEncodingJSON holds the reply's own encoding to
// encoding/json's over every response_url golden file (decoded into
// slack-go's types) and over replies of each shape.
func TestReplyEncodingMatchesEncodingJSON(t *testing.T) {
	t.Parallel()
	files, err := filepath.Glob(filepath.Join("testdata", "*.golden.json"))
	require.NoError(t, err)
	require.NotEmpty(t, files)
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			t.Parallel()
			b, err := os.ReadFile(f)
			require.NoError(t, err)
			var v struct {
				ResponseType    string       `json:"response_type"`
				ReplaceOriginal bool         `json:"replace_original"`
				Text            string       `json:"text"`
				Blocks          slack.Blocks `json:"blocks"`
			}
			require.NoError(t, json.Unmarshal(b, &v))
			assertEncodes(t, &reply{ResponseType: v.ResponseType, ReplaceOriginal: v.ReplaceOriginal, Text: v.Text, Blocks: v.Blocks.BlockSet})
		})
	}
	for name, r := range map[string]*reply{
		"empty":        {},
		"text only":    {Text: "<b> & \u2028"},
		"replace":      {ReplaceOriginal: true, Text: "x", Blocks: []slack.Block{}},
		"notice":       notice(":warning: <!channel> & co"),
		"raw blocks":   {ResponseType: "in_channel", Blocks: []slack.Block{blocks.RawBlock(`{"type":"divider" , "block_id":"a&b"}`)}},
		"actions list": ephemeral(blocks.Actions(blocks.ActionList{Title: "Yours", Total: 1, Rows: []blocks.ActionRow{{ID: "A-1", Title: "x", Status: "open", CanChange: true}}})),
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			assertEncodes(t, r)
		})
	}
}

// FuzzReplyEncoding holds the reply's encoding to encoding/json's over
// action lists drawn from arbitrary text.
func FuzzReplyEncoding(f *testing.F) {
	f.Add("ephemeral", "Your <open> actions & more", "A-1|x", "Budget \xff\u2028", true)
	f.Add("", "", "", "", false)
	f.Fuzz(func(t *testing.T, responseType, title, id, text string, replace bool) {
		l := blocks.ActionList{Title: title, Total: 2, Rows: []blocks.ActionRow{
			{ID: id, Title: text, Status: "open", CanChange: true, Deadline: time.Date(2026, 1, 2, 0, 0, 0, 0, time.UTC)},
			{ID: id + "2", Title: title, Status: text, Committee: text, CanChange: replace, Context: id},
		}}
		r := ephemeral(blocks.Actions(l))
		r.ResponseType, r.ReplaceOriginal = responseType, replace
		assertEncodes(t, r)
		assertEncodes(t, notice(text))
	})
}
