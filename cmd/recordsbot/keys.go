package main

import (
	"crypto/rand"
	"encoding/hex"
)

// randomKey returns a fresh random secret for local-only use (the sandbox's
// API key, the demo's signing secret).
func randomKey() string {
	var b [16]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}
