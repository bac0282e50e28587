// Package readfile is the one reader of every file Thea reads: specs,
// worlds, scripts, answers, memory, skills and their resources, episodes,
// run logs and eval results. It reads only regular files, each kind up to
// its documented limit (Kind), resolves names under a root (os.Root) so a
// symlink cannot lead outside a folder, and honours a context, so /dev/zero,
// a FIFO, an escaping symlink or a huge file is a clear error at once, never
// a hang or an out-of-memory crash.
package readfile
