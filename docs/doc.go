// Package docs is Thea's user manual: one markdown page per topic, the
// formats/ folder with a page for every file a user writes, and reference/,
// generated from the embedded schema. It holds no code; its tests check the
// manual: the front page's length, that every relative link and anchor
// resolves, that the front page reaches every page, and that each format page
// shows an example.
package docs
