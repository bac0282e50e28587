// Package rules owns the expr rule language: compiling a rule against a typed
// environment with errors at a line and column inside the expression, the
// body's names a rule reads beyond Go fields (clearance sectors, extra limits,
// safety readings), the bounds every expr Thea evaluates is compiled and run
// with, and fail-closed reads of a value a back-end did not send. It knows no
// spec section and imports neither schema nor CUE: package schema finds the
// rules in a spec and says what each environment and name is.
package rules
