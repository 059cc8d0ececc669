package canon

// SlowJSON is the encoding/json path JSON falls back to, for tests that
// compare the two.
var SlowJSON = slowJSON
