//go:build race

package bot_test

// raceDetector is whether the race detector is on: it changes what
// allocates (sync.Pool drops items at random), so allocation budgets are
// checked without it.
const raceDetector = true
