// Package quantity writes the measured quantities a request shows
// (positions, distances, angles) one way, so the Scene Graph Brief and the
// Observation never state one fact with two roundings.
package quantity
