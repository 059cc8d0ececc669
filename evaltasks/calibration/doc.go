// Package calibration scores answers written by others, without seeing the labels or the scorers, through the
// evaluator as a user's model is scored, so that a scorer too strict for natural answers fails a test.
package calibration
