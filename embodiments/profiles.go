package embodiments

import (
	"embed"
	"fmt"
	"path"
	"strings"
)

//go:embed profiles/*.cue
var profileFS embed.FS

// Profiles returns the bundled embodiment profiles: name (the file's base,
// e.g. "household_sim") → CUE source of the profile's struct body. A CUE spec
// refers to one as `#embodiments.household_sim` when the loader is given them.
func Profiles() map[string]string {
	entries, err := profileFS.ReadDir("profiles")
	if err != nil {
		panic(fmt.Sprintf("embodiments: embedded profiles unreadable: %v", err)) // cannot happen: embedded at build
	}
	out := make(map[string]string, len(entries))
	for _, e := range entries {
		b, err := profileFS.ReadFile(path.Join("profiles", e.Name()))
		if err != nil {
			panic(fmt.Sprintf("embodiments: embedded profile %s unreadable: %v", e.Name(), err))
		}
		out[strings.TrimSuffix(e.Name(), ".cue")] = string(b)
	}
	return out
}
