package minutespage

import (
	"bytes"

	"github.com/recordsbot/recordsbot/internal/invisible"
)

// cleanOutput is the one cleaning rule of the pages' two formats, HTML
// (execute) and Atom (writeFeed): the whole document, once written,
// without the bidi, zero-width and line-separator characters package
// invisible strips, so no field a template or the feed adds later can
// carry one through. The escaping itself is html/template's and
// encoding/xml's. A document without any (nearly all) is returned as it
// is, at no copy.
func cleanOutput(b []byte) []byte {
	if !bytes.ContainsFunc(b, invisible.Is) {
		return b
	}
	return []byte(invisible.Strip(string(b)))
}
