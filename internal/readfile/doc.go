// Package readfile reads the files a user or a back-end names (specs,
// worlds, scripts, answers, skills) safely: only regular files, only up to a
// stated size, so /dev/zero, a FIFO or a huge file is a clear error at once,
// never a hang or an out-of-memory crash.
package readfile
