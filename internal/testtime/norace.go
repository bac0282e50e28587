//go:build !race

package testtime

const raceFactor = 1
