// Package evaltasks is the evaluation: the eight tasks of the evaluation paper (§3.4) run against an agent, their scorers, metrics and reports.
package evaltasks
