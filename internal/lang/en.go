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
	},
	Plurals: map[Key]Plural{
		"count.actions": {One: "{n} action", Other: "{n} actions"},
	},
}
