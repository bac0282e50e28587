package sim

import (
	"fmt"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
)

func TestHouseholdWorld(t *testing.T) {
	w := household(t)
	if len(w.Rooms) != 3 || len(w.Objects) != 4 || w.Robot.ReachM != 0.8 {
		t.Fatalf("household: %d rooms, %d objects, reach %v", len(w.Rooms), len(w.Objects), w.Robot.ReachM)
	}
	// The cameras and reach must match embodiments/profiles/household_sim.cue
	// (read as text: this package does not depend on CUE).
	cue, err := os.ReadFile("../profiles/household_sim.cue")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range w.Robot.Cameras {
		got = append(got, fmt.Sprintf("%s %dx%d fov %g", c.Name, c.Width, c.Height, c.FovDeg))
	}
	var want []string
	for _, m := range regexp.MustCompile(`name:\s*"(\w+)",[^}]*width:\s*(\d+),\s*height:\s*(\d+),\s*fov_deg:\s*([\d.]+)`).FindAllStringSubmatch(string(cue), -1) {
		want = append(want, fmt.Sprintf("%s %sx%s fov %s", m[1], m[2], m[3], m[4]))
	}
	if !slices.Equal(got, want) {
		t.Errorf("world cameras %q, profile cameras %q", got, want)
	}
	if m := regexp.MustCompile(`reach_m:\s*([\d.]+)`).FindStringSubmatch(string(cue)); m == nil || fmt.Sprint(w.Robot.ReachM) != m[1] {
		t.Errorf("world reach %v, profile %v", w.Robot.ReachM, m)
	}
	if got := w.roomAt(w.Robot.Start.Pos); got != "living_room" {
		t.Errorf("robot starts in %q", got)
	}
	t.Chdir("testdata")
	d, err := DefaultWorld(t.Context())
	if err != nil || d.Name != "household" {
		t.Fatalf("DefaultWorld from a sub-directory: %v, %v", d, err)
	}
}

const minimal = `
name: t
rooms: [{name: r, rect: {min: [0, 0], max: [4, 4]}}]
furniture: [{name: table, room: r, footprint: {min: [2, 2], max: [3, 3]}, surface: true}]
objects: [{name: cup, relation: on, target: table}]
robot: {radius_m: 0.25, reach_m: 0.8, start: {x: 1, y: 1}, cameras: [{name: head, width: 64, height: 48, fov_deg: 90}]}
`

// TestWorldErrors: each broken world is rejected with the field and the why.
func TestWorldErrors(t *testing.T) {
	if _, err := ParseWorld([]byte(minimal)); err != nil {
		t.Fatalf("minimal world: %v", err)
	}
	for _, tc := range []struct{ from, to, want string }{
		{"name: t", "name: ''", "name: required"},
		{"rect: {min: [0, 0], max: [4, 4]}", "rect: {min: [0, 0], max: [4]}", "rooms[0].rect.max: want [x, y]"},
		{"rect: {min: [0, 0], max: [4, 4]}", "rect: {min: [5, 0], max: [4, 4]}", "rooms[0].rect: min [5 0] must be below and left of max"},
		{"rect: {min: [0, 0], max: [4, 4]}", "polygon: [[0, 0], [1, 1]]", "a rect or a polygon of at least 3 points"},
		{"room: r,", "room: attic,", `furniture[0] (table).room: "attic" is not a declared room`},
		{"surface: true}", "surface: false}", `objects[0] (cup).target: "table" is not furniture with surface: true`},
		{"relation: on", "relation: under", `relation: "under" must be on or in`},
		{"target: table}", "target: table, position: [9, 9]}", "position: [9 9] lies outside the footprint of table"},
		{"{name: cup,", "{name: table,", `objects[0].name: "table" is already used by furniture[0]`},
		{"radius_m: 0.25", "radius_m: 0", "robot.radius_m: must be positive"},
		{"start: {x: 1, y: 1}", "start: {x: 2.5, y: 2.5}", "robot.start: (2.50, 2.50) overlaps an obstacle"},
		{"start: {x: 1, y: 1}", "start: {x: 9, y: 9}", "robot.start: (9.00, 9.00) is in no room"},
		{"width: 64", "width: 8", "robot.cameras[0] (head): width and height must be within"},
		{"cameras: [{name: head, width: 64, height: 48, fov_deg: 90}]", "cameras: []", "robot.cameras: at least one camera"},
		{"name: t", "name: t\ncolour: red", "field colour not found"},
		{"name: t", "name: t\nsuccess_probability: {pick_up: 1.5}", "success_probability.pick_up: 1.5 must be within [0, 1]"},
		{"name: t", "name: t\nsuccess_probability: {fly: 0.5}", "success_probability.fly: unknown tool"},
		{"name: t", "name: t\ndetection_probability: -0.1", "detection_probability: -0.1 must be within [0, 1]"},
		{"name: t", "name: t\ndetection_probability: .nan", "detection_probability: NaN must be within [0, 1]"},
		{"name: t", "name: t\nwalls: [{from: [0, 0], to: [4, 0], doorways: [{at_m: 3.8, width_m: 1}]}]", "walls[0].doorways[0]: at_m 3.8 width_m 1 must be a positive width inside the wall"},
		{"surface: true}", "surface: true, front: up}", `front: "up" must be north, south, east or west`},
		{"surface: true}", "surface: true, containers: [{name: d, state: ajar}]}", `containers[0].state: "ajar" must be open or closed`},
		// A world's coordinates must not size the planner's grid (before,
		// these started a simulator that asked for 10^14 cells or more).
		{"max: [4, 4]}", "max: [1e6, 4]}", "rooms: together they span 1e+06 × 4 m; the simulator plans on a 0.1 m grid of at most 1000000 cells (e.g. 100 m × 100 m)"},
		{"max: [4, 4]}", "max: [.inf, 4]}", "rooms[0].rect.max: [+Inf 4]: want finite numbers of metres"},
		{"min: [0, 0], max: [4, 4]}", "min: [.nan, 0], max: [4, 4]}", "rooms[0].rect.min: [NaN 0]: want finite numbers of metres"},
	} {
		src := strings.Replace(minimal, tc.from, tc.to, 1)
		if src == minimal {
			t.Fatalf("case %q: replacement did not apply", tc.want)
		}
		_, err := ParseWorld([]byte(src))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s → %s: error %v, want it to say %q", tc.from, tc.to, err, tc.want)
		}
	}
}

func TestLoadWorldNamesTheFile(t *testing.T) {
	p := t.TempDir() + "/bad.yaml"
	if err := os.WriteFile(p, []byte("name: x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := LoadWorld(t.Context(), p)
	if err == nil || !strings.Contains(err.Error(), p) || !strings.Contains(err.Error(), "rooms: at least one room") {
		t.Fatalf("LoadWorld: %v", err)
	}
	if _, err := ParseWorld(nil); err == nil || !strings.Contains(err.Error(), "empty world file") {
		t.Fatalf("empty: %v", err)
	}
}

// FuzzParseWorld: any input either loads or fails with an error, never panics.
func FuzzParseWorld(f *testing.F) {
	f.Add([]byte(minimal))
	if b, err := os.ReadFile("../../examples/household/world.yaml"); err == nil {
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		w, err := ParseWorld(data)
		if err == nil && (w.Name == "" || len(w.Rooms) == 0) {
			t.Fatal("accepted a world without a name or rooms")
		}
	})
}
