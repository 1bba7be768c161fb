// Package onewritetest counts, from a client's side, the TCP segments with
// data that arrive on the connections it dials: how a test tells an
// answer sent in one write from one sent in several.
package onewritetest
