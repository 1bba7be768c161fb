package lang

// french is recordsbot in French.
var french = Catalogue{
	Code:    "fr",
	Name:    "Français",
	Aliases: map[string]string{},
	Strings: map[Key]string{
		"date.short":    "{day} {month} {year}",
		"date.long":     "{day} {month} {year}",
		"date.at":       "{date} à {time}",
		"month.short.1": "janv.", "month.short.2": "févr.", "month.short.3": "mars",
		"month.short.4": "avr.", "month.short.5": "mai", "month.short.6": "juin",
		"month.short.7": "juil.", "month.short.8": "août", "month.short.9": "sept.",
		"month.short.10": "oct.", "month.short.11": "nov.", "month.short.12": "déc.",
		"month.long.1": "janvier", "month.long.2": "février", "month.long.3": "mars",
		"month.long.4": "avril", "month.long.5": "mai", "month.long.6": "juin",
		"month.long.7": "juillet", "month.long.8": "août", "month.long.9": "septembre",
		"month.long.10": "octobre", "month.long.11": "novembre", "month.long.12": "décembre",

		"status.open":        "Ouverte",
		"status.in_progress": "En cours",
		"status.complete":    "Terminée",
		"status.cancelled":   "Annulée",
		"status.deferred":    "Reportée",
	},
	Plurals: map[Key]Plural{
		"count.actions": {One: "{n} action", Other: "{n} actions"},
	},
}
