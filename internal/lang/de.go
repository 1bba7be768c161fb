package lang

// german is recordsbot in German.
var german = Catalogue{
	Code:    "de",
	Name:    "Deutsch",
	Aliases: map[string]string{},
	Strings: map[Key]string{
		"date.short":    "{day}. {month} {year}",
		"date.long":     "{day}. {month} {year}",
		"date.at":       "{date} um {time}",
		"month.short.1": "Jan.", "month.short.2": "Feb.", "month.short.3": "März",
		"month.short.4": "Apr.", "month.short.5": "Mai", "month.short.6": "Juni",
		"month.short.7": "Juli", "month.short.8": "Aug.", "month.short.9": "Sept.",
		"month.short.10": "Okt.", "month.short.11": "Nov.", "month.short.12": "Dez.",
		"month.long.1": "Januar", "month.long.2": "Februar", "month.long.3": "März",
		"month.long.4": "April", "month.long.5": "Mai", "month.long.6": "Juni",
		"month.long.7": "Juli", "month.long.8": "August", "month.long.9": "September",
		"month.long.10": "Oktober", "month.long.11": "November", "month.long.12": "Dezember",

		"status.open":        "Offen",
		"status.in_progress": "In Arbeit",
		"status.complete":    "Erledigt",
		"status.cancelled":   "Abgesagt",
		"status.deferred":    "Zurückgestellt",
	},
	Plurals: map[Key]Plural{
		"count.actions": {One: "{n} Aufgabe", Other: "{n} Aufgaben"},
	},
}
