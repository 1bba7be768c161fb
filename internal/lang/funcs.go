package lang

import (
	"html/template"
	"time"
)

// FuncMap is the catalogue for html/template: the template's data carries
// the page's Lang and every call names it, so one parsed template serves
// every language.
//
//	{{t .Lang "archive.title"}}
//	{{f .Lang "archive.page" "page" .Page}}
//	{{n .Lang "archive.count" .Count}}
//	{{num .Lang .Count}} {{date .Lang .Date}} {{longdate .Lang .Date}}
//
// html/template escapes what these return like any other value.
func FuncMap() template.FuncMap {
	return template.FuncMap{
		"t":        func(l Lang, k Key) string { return l.T(k) },
		"f":        func(l Lang, k Key, args ...string) string { return l.F(k, args...) },
		"n":        func(l Lang, k Key, n int, args ...string) string { return l.N(k, n, args...) },
		"num":      func(l Lang, n int) string { return l.Int(n) },
		"date":     func(l Lang, t time.Time) string { return l.Date(t) },
		"longdate": func(l Lang, t time.Time) string { return l.LongDate(t) },
	}
}
