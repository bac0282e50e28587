// Package skills owns SKILL.md parsing (YAML front matter and markdown body),
// the resident catalog of names and descriptions, and skill bodies for
// load_skill. It holds no robot code.
package skills
