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

		// The audit trail (docs/audit.md).
		"audit.not_recorded":       ":warning: Ich konnte diese Änderung nicht im Prüfprotokoll festhalten (meine Datenbank ist gerade nicht erreichbar) und habe sie deshalb nicht vorgenommen: Nichts wurde geändert. Bitte versuche es in ein paar Minuten erneut.",
		"audit.history.title":      ":scroll: Verlauf von {action}",
		"audit.history.empty":      "Diese Aufgabe wurde noch nie über recordsbot geändert.",
		"audit.history.foot":       "Änderungen über Slack, älteste zuerst, in deiner Zeitzone. Änderungen direkt im Protokolldienst stehen hier nicht.",
		"audit.history.usage":      "`/actions history` braucht die ID der Aufgabe, z. B. `/actions history 42`.",
		"audit.history.unseen":     ":mag: Ich kann den Verlauf von `{id}` nicht zeigen: Es ist keine Aufgabe, die du sehen darfst.",
		"audit.history.down":       ":warning: Ich konnte das Prüfprotokoll gerade nicht lesen. Bitte versuche es in ein paar Minuten erneut.",
		"audit.recent.title":       "Letzte Änderungen",
		"audit.recent.empty":       "Über recordsbot wurde noch nichts geändert.",
		"audit.recent.more":        "Ältere Änderungen",
		"audit.recent.down":        ":warning: Ich konnte das Prüfprotokoll gerade nicht lesen.",
		"audit.line":               "{time} · {who} · {change} · {surface} · _{outcome}_",
		"audit.by_recordsbot":      "recordsbot",
		"audit.surface.command":    "Befehl",
		"audit.surface.reply":      "Schaltfläche einer Antwort",
		"audit.surface.reminder":   "Schaltfläche einer DM",
		"audit.surface.home":       "Startseite",
		"audit.surface.digest":     "Wochenübersicht",
		"audit.surface.recordsbot": "recordsbot",
		"audit.surface.":           "unbekannte Herkunft",
	},
	Plurals: map[Key]Plural{
		"count.actions": {One: "{n} Aufgabe", Other: "{n} Aufgaben"},
	},
}
