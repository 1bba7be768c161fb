package blocks

import "github.com/recordsbot/recordsbot/internal/lang"

var words = map[lang.Key]string{"row.due": "Due {date}"}
var counts = map[lang.Key]lang.Plural{"count.actions": {One: "{n} action", Other: "{n} actions"}}
var keys = map[string]lang.Key{"open": "status.open"}
