// Package csvcell is the one cleaning rule for text written into a CSV
// file that people open in a spreadsheet: a cell that starts with a
// character a spreadsheet reads as the start of a formula is written
// with a leading apostrophe, so it is shown as text and never run.
//
// The characters are OWASP's CSV-injection list: = + - @, tab and
// carriage return (https://owasp.org/www-community/attacks/CSV_Injection).
// A cell whose first character after leading spaces is one of them is
// neutralised too, as some spreadsheets skip the spaces. Quoting (commas,
// quotes, line breaks) is encoding/csv's; this rule is about meaning.
package csvcell

import "strings"

// triggers are the first characters a spreadsheet reads as a formula.
const triggers = "=+-@\t\r"

// Clean returns s as a CSV cell that a spreadsheet shows as text: s with
// an apostrophe before it when it starts (after any spaces) with = + - @,
// a tab or a carriage return; s unchanged otherwise.
func Clean(s string) string {
	rest := strings.TrimLeft(s, " ")
	if rest == "" || !strings.ContainsRune(triggers, rune(rest[0])) {
		return s
	}
	return "'" + s
}

// Row cleans every cell of row in place and returns it.
func Row(row []string) []string {
	for i, c := range row {
		row[i] = Clean(c)
	}
	return row
}
