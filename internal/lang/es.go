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

		// The audit trail (docs/audit.md).
		"audit.not_recorded":       ":warning: No pude registrar este cambio en el registro de auditoría (mi base de datos no está disponible ahora), así que no lo hice: no se cambió nada. Inténtalo de nuevo en unos minutos.",
		"audit.history.title":      ":scroll: Historial de {action}",
		"audit.history.empty":      "Esta acción no se ha cambiado nunca a través de recordsbot.",
		"audit.history.foot":       "Cambios hechos desde Slack, del más antiguo al más reciente, en tu zona horaria. Los hechos en el propio servicio de actas no aparecen.",
		"audit.history.usage":      "`/actions history` necesita el ID de la acción, como `/actions history 42`.",
		"audit.history.unseen":     ":mag: No puedo mostrar el historial de `{id}`: no es una de las acciones que puedes ver.",
		"audit.history.down":       ":warning: No pude leer el registro de auditoría. Inténtalo de nuevo en unos minutos.",
		"audit.recent.title":       "Cambios recientes",
		"audit.recent.empty":       "Todavía no se ha cambiado nada a través de recordsbot.",
		"audit.recent.more":        "Cambios anteriores",
		"audit.recent.down":        ":warning: No pude leer el registro de auditoría.",
		"audit.line":               "{time} · {who} · {change} · {surface} · _{outcome}_",
		"audit.by_recordsbot":      "recordsbot",
		"audit.surface.command":    "comando",
		"audit.surface.reply":      "botón de una respuesta",
		"audit.surface.reminder":   "botón de un mensaje directo",
		"audit.surface.home":       "pestaña Inicio",
		"audit.surface.digest":     "resumen",
		"audit.surface.recordsbot": "recordsbot",
		"audit.surface.":           "origen desconocido",
	},
	Plurals: map[Key]Plural{
		"count.actions": {One: "{n} acción", Other: "{n} acciones"},
	},
}
