// Package readfiletest gives tests of file readers the hostile inputs every
// reader must refuse at once: a FIFO with no writer, /dev/zero, /dev/urandom,
// a sparse file larger than a limit.
package readfiletest
