//go:build race

package engine

// raceDetector: the race runtime reserves far more memory than an engine's
// own, so tests of kernel memory caps cannot run under it.
const raceDetector = true
