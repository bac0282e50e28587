// Package skills owns SKILL.md parsing (YAML front matter and markdown body),
// the Skill Catalog (names and descriptions resident, bodies loaded on
// demand by load_skill) and the resource files a skill lists beside it. It
// holds no robot code.
package skills
