package report

import (
	"fmt"
	"time"
)

// The Scene Graph as foxglove.SceneUpdate: every place and object the
// observations gave a position, in the map frame, as the report's map draws
// them (places as flat squares, objects as small cubes, each labelled; a
// fact not re-observed for staleTurns greyed). Each update first deletes
// all entities, so the scene is what was known at that time.

type fgDeletion struct {
	Timestamp fgTime `json:"timestamp"`
	Type      int    `json:"type"` // 1: all entities of the topic
	ID        string `json:"id"`
}

type fgCube struct {
	Pose  fgPose  `json:"pose"`
	Size  fgVec3  `json:"size"`
	Color fgColor `json:"color"`
}

type fgText struct {
	Pose           fgPose  `json:"pose"`
	Billboard      bool    `json:"billboard"`
	FontSize       float64 `json:"font_size"`
	ScaleInvariant bool    `json:"scale_invariant"`
	Color          fgColor `json:"color"`
	Text           string  `json:"text"`
}

type fgKeyValue struct {
	Key   string `json:"key"`
	Value string `json:"value"`
}

// fgEntity has every array of foxglove.SceneEntity, empty when unused, so a
// reader that expects them finds them.
type fgEntity struct {
	Timestamp   fgTime       `json:"timestamp"`
	FrameID     string       `json:"frame_id"`
	ID          string       `json:"id"`
	Lifetime    fgTime       `json:"lifetime"`
	FrameLocked bool         `json:"frame_locked"`
	Metadata    []fgKeyValue `json:"metadata"`
	Arrows      []any        `json:"arrows"`
	Cubes       []fgCube     `json:"cubes"`
	Spheres     []any        `json:"spheres"`
	Cylinders   []any        `json:"cylinders"`
	Lines       []any        `json:"lines"`
	Triangles   []any        `json:"triangles"`
	Texts       []fgText     `json:"texts"`
	Models      []any        `json:"models"`
}

type fgSceneUpdate struct {
	Deletions []fgDeletion `json:"deletions"`
	Entities  []fgEntity   `json:"entities"`
}

func sceneMessage(t time.Time, w *mapWorld) fgSceneUpdate {
	placeColor := fgColor{R: 0.55, G: 0.45, B: 0.3, A: 0.6}
	objectColor := fgColor{R: 0.2, G: 0.5, B: 0.9, A: 1}
	staleColor := fgColor{R: 0.6, G: 0.6, B: 0.6, A: 0.6}
	labelColor := fgColor{R: 1, G: 1, B: 1, A: 1}
	ts := stamp(t)
	ids := map[string]int{}
	u := fgSceneUpdate{Deletions: []fgDeletion{{Timestamp: ts, Type: 1}}, Entities: []fgEntity{}}
	add := func(kind string, s seen, size fgVec3, c fgColor) {
		stale := w.turn-s.turn >= staleTurns
		if stale {
			c = staleColor
		}
		at := fgPose{Position: fgVec3{X: s.x, Y: s.y, Z: size.Z / 2}, Orientation: fgQuat{W: 1}}
		label := fgPose{Position: fgVec3{X: s.x, Y: s.y, Z: size.Z + 0.15}, Orientation: fgQuat{W: 1}}
		meta := []fgKeyValue{{Key: "kind", Value: kind}, {Key: "name", Value: s.name}}
		if stale {
			meta = append(meta, fgKeyValue{Key: "stale", Value: "true"})
		}
		// Two objects of one name (distinct ids) are two entities.
		id := kind + ":" + s.name
		if ids[id]++; ids[id] > 1 {
			id = fmt.Sprintf("%s#%d", id, ids[id])
		}
		u.Entities = append(u.Entities, fgEntity{
			Timestamp: ts, FrameID: FrameMap, ID: id, Metadata: meta,
			Arrows: []any{}, Spheres: []any{}, Cylinders: []any{}, Lines: []any{}, Triangles: []any{}, Models: []any{},
			Cubes: []fgCube{{Pose: at, Size: size, Color: c}},
			Texts: []fgText{{Pose: label, Billboard: true, FontSize: 14, ScaleInvariant: true, Color: labelColor, Text: s.name}},
		})
	}
	for _, s := range sortedSeen(w.places) {
		add("place", s, fgVec3{X: 0.6, Y: 0.6, Z: 0.02}, placeColor)
	}
	for _, s := range sortedSeen(w.objects) {
		add("object", s, fgVec3{X: 0.12, Y: 0.12, Z: 0.12}, objectColor)
	}
	return u
}
