package schema

import "testing"

func TestToolIndexResolve(t *testing.T) {
	x := ToolIndex{
		sets: map[string][]string{"core": {"query_user", "notify_user"}, "arm": {"grip", "observe"}, "cam": {"observe"}, "sim": nil},
		open: map[string]bool{"sim": true},
	}
	closed := ToolIndex{sets: map[string][]string{"core": {"query_user"}}, open: map[string]bool{}}
	for _, tc := range []struct {
		x        ToolIndex
		ref      string
		set, got string
		r        Resolution
	}{
		{x, "grip", "arm", "grip", Found},
		{x, "arm.grip", "arm", "grip", Found},
		{x, "core.grip", "", "", Unknown}, // core's tools are all known
		{x, "observe", "", "", Ambiguous}, // two toolsets have it
		{x, "cam.observe", "cam", "observe", Found},
		{x, "sim.navigate_to", "sim", "navigate_to", Possible},
		{x, "navigate_to", "", "navigate_to", Possible}, // sim may have it
		{closed, "navigate_to", "", "", Unknown},
		{closed, "a.b", "", "", Unknown},
		{closed, "", "", "", Unknown},
	} {
		set, tool, r := tc.x.Resolve(tc.ref)
		if set != tc.set || tool != tc.got || r != tc.r {
			t.Errorf("Resolve(%q) = %q, %q, %v; want %q, %q, %v", tc.ref, set, tool, r, tc.set, tc.got, tc.r)
		}
	}
}
