package main

import goversion "go/version"

// patchedGo is the oldest Go release with every standard-library fix
// known to reach recordsbot (govulncheck on go1.26.8 found 13, GO-2026-6599
// … -6809: net/http, html/template, crypto/tls, crypto/x509,
// net/textproto). It is the one place that release is named: the
// Dockerfile's golang image and .ci/run's GOTOOLCHAIN are kept in step
// with it by TestToolchainInStep.
const patchedGo = "go1.27.3"

// toolchainFixesPending says, for a binary built with Go release v
// (runtime.Version()), what is pending: "" when v is patchedGo or later,
// or is not a release (a development build, which cannot be judged).
func toolchainFixesPending(v string) string {
	if !goversion.IsValid(v) || goversion.Compare(v, patchedGo) >= 0 {
		return ""
	}
	return "built with " + v + ", which has known standard-library security fixes pending (" + patchedGo + " has them)"
}
