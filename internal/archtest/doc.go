// Package archtest holds the test that keeps the import rules of the architecture (../shared/ARCHITECTURE.md): which parts never reach the stand-ins or the evaluator.
package archtest
