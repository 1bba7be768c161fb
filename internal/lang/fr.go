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

		// The audit trail (docs/audit.md).
		"audit.not_recorded":       ":warning: Je n'ai pas pu inscrire ce changement au journal d'audit (ma base de données est indisponible), je ne l'ai donc pas fait : rien n'a changé. Réessayez dans quelques minutes.",
		"audit.history.title":      ":scroll: Historique de {action}",
		"audit.history.empty":      "Aucun changement de cette action n'a été fait par recordsbot.",
		"audit.history.foot":       "Changements faits depuis Slack, du plus ancien au plus récent, dans votre fuseau horaire. Ceux faits dans le service des registres lui-même n'y sont pas.",
		"audit.history.usage":      "`/actions history` demande l'identifiant de l'action, comme `/actions history 42`.",
		"audit.history.unseen":     ":mag: Je ne peux pas montrer l'historique de `{id}` : ce n'est pas une action que vous pouvez voir.",
		"audit.history.down":       ":warning: Je n'ai pas pu lire le journal d'audit. Réessayez dans quelques minutes.",
		"audit.recent.title":       "Changements récents",
		"audit.recent.empty":       "Aucun changement n'a encore été fait par recordsbot.",
		"audit.recent.more":        "Plus anciens",
		"audit.recent.down":        ":warning: Je n'ai pas pu lire le journal d'audit.",
		"audit.line":               "{time} · {who} · {change} · {surface} · _{outcome}_",
		"audit.by_recordsbot":      "recordsbot",
		"audit.surface.command":    "commande",
		"audit.surface.reply":      "bouton d'une réponse",
		"audit.surface.reminder":   "bouton d'un message privé",
		"audit.surface.home":       "onglet Accueil",
		"audit.surface.digest":     "récapitulatif",
		"audit.surface.recordsbot": "recordsbot",
		"audit.surface.":           "origine inconnue",
	},
	Plurals: map[Key]Plural{
		"count.actions": {One: "{n} action", Other: "{n} actions"},
	},
}
