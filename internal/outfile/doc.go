// Package outfile writes the files a user names on the command line (a
// report page, an evaluation's JSON, a JUnit report, a recorded episode):
// only to a new path or over a regular file, atomically, so a FIFO, a device
// such as /dev/null or a directory at that path is refused before anything
// is written and never replaced; Create and CreateDir refuse any existing
// path, a symbolic link included.
package outfile
