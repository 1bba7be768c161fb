package lang

// english is the catalogue's source: every key is defined here first, and
// the other languages translate it. Keep keys grouped by surface, in the
// order the surface shows them.
var english = Catalogue{
	Code:    "en",
	Name:    "English",
	Aliases: map[string]string{},
	Strings: map[Key]string{
		// Dates: the fallback text of Slack date tokens and dates on pages.
		"date.short":    "{month} {day}, {year}",
		"date.long":     "{month} {day}, {year}",
		"date.at":       "{date} at {time}",
		"month.short.1": "Jan", "month.short.2": "Feb", "month.short.3": "Mar",
		"month.short.4": "Apr", "month.short.5": "May", "month.short.6": "Jun",
		"month.short.7": "Jul", "month.short.8": "Aug", "month.short.9": "Sep",
		"month.short.10": "Oct", "month.short.11": "Nov", "month.short.12": "Dec",
		"month.long.1": "January", "month.long.2": "February", "month.long.3": "March",
		"month.long.4": "April", "month.long.5": "May", "month.long.6": "June",
		"month.long.7": "July", "month.long.8": "August", "month.long.9": "September",
		"month.long.10": "October", "month.long.11": "November", "month.long.12": "December",

		// Action statuses, as a row shows them.
		"status.open":        "Open",
		"status.in_progress": "In progress",
		"status.complete":    "Complete",
		"status.cancelled":   "Cancelled",
		"status.deferred":    "Deferred",

		// The audit trail (docs/audit.md).
		"audit.not_recorded":       ":warning: I couldn't record this change in the audit trail (my database is unavailable right now), so I didn't make it: nothing was changed. Please try again in a few minutes.",
		"audit.history.title":      ":scroll: History of {action}",
		"audit.history.empty":      "No changes to this action have been made through recordsbot.",
		"audit.history.foot":       "Changes made through Slack, oldest first, in your time zone. Changes made in the records service itself are not here.",
		"audit.history.usage":      "`/actions history` needs the action's ID, like `/actions history 42`.",
		"audit.history.unseen":     ":mag: I can't show the history of `{id}`: it isn't one of the actions you may see.",
		"audit.history.down":       ":warning: I couldn't read the audit trail just now. Please try again in a few minutes.",
		"audit.recent.title":       "Recent changes",
		"audit.recent.empty":       "No changes have been made through recordsbot yet.",
		"audit.recent.more":        "Older changes",
		"audit.recent.down":        ":warning: I couldn't read the audit trail just now.",
		"audit.line":               "{time} · {who} · {change} · {surface} · _{outcome}_",
		"audit.by_recordsbot":      "recordsbot",
		"audit.surface.command":    "command",
		"audit.surface.reply":      "button on a reply",
		"audit.surface.reminder":   "button in a DM",
		"audit.surface.home":       "Home tab",
		"audit.surface.digest":     "digest",
		"audit.surface.recordsbot": "recordsbot",
		"audit.surface.":           "unknown surface",
	},
	Plurals: map[Key]Plural{
		"count.actions": {One: "{n} action", Other: "{n} actions"},
	},
}
