// Package sampletest is a test-only package beside the code: its words
// are a test's dataset, which no person reads.
package sampletest

// Person is in no catalogue, and need not be.
const Person = "Alice Adams was here"
