package lang

// spanish is recordsbot in Spanish.
var spanish = Catalogue{
	Code:    "es",
	Name:    "Español",
	Aliases: map[string]string{},
	Strings: map[Key]string{
		"date.short":    "{day} {month} {year}",
		"date.long":     "{day} de {month} de {year}",
		"date.at":       "{date} a las {time}",
		"month.short.1": "ene", "month.short.2": "feb", "month.short.3": "mar",
		"month.short.4": "abr", "month.short.5": "may", "month.short.6": "jun",
		"month.short.7": "jul", "month.short.8": "ago", "month.short.9": "sept",
		"month.short.10": "oct", "month.short.11": "nov", "month.short.12": "dic",
		"month.long.1": "enero", "month.long.2": "febrero", "month.long.3": "marzo",
		"month.long.4": "abril", "month.long.5": "mayo", "month.long.6": "junio",
		"month.long.7": "julio", "month.long.8": "agosto", "month.long.9": "septiembre",
		"month.long.10": "octubre", "month.long.11": "noviembre", "month.long.12": "diciembre",

		"status.open":        "Abierta",
		"status.in_progress": "En curso",
		"status.complete":    "Completada",
		"status.cancelled":   "Cancelada",
		"status.deferred":    "Aplazada",
	},
	Plurals: map[Key]Plural{
		"count.actions": {One: "{n} acción", Other: "{n} acciones"},
	},
}
