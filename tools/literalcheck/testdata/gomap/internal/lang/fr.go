package lang

var french = Catalogue{Code: "fr", Strings: map[Key]string{"row.due": "Échéance {date}"}}
