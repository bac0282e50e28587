package scenegraph

import (
	"fmt"
	"maps"

	"github.com/thea-harness/thea/world"
)

// A session checkpoint keeps the graph's facts so another process can
// continue the task (see engine's resume). Camera images are not kept: they
// live for one request, and a resumed session observes afresh. Line caches
// and indexes are rebuilt.

// Snapshot is the graph's facts as a checkpoint keeps them.
type Snapshot struct {
	Turn      int            `json:"turn"`
	Epochs    []SnapEpoch    `json:"epochs,omitempty"`
	Nodes     []SnapNode     `json:"nodes"`
	Relations []SnapRelation `json:"relations,omitempty"`
	EmptyHand Source         `json:"empty_hand"`
	Applied   map[string]int `json:"applied,omitempty"`
}

// SnapEpoch is one task of the session on the graph's clock.
type SnapEpoch struct {
	Task int `json:"task"`
	Base int `json:"base"`
}

// SnapNode is one ref and its facts.
type SnapNode struct {
	Ref         string         `json:"ref"`
	Name        string         `json:"name"`
	Class       string         `json:"class,omitempty"`
	ID          string         `json:"id,omitempty"`
	Kind        NodeKind       `json:"kind"`
	Room        string         `json:"room,omitempty"`
	Pos         *world.Point   `json:"pos,omitempty"`
	ThetaDeg    float64        `json:"theta_deg,omitempty"`
	DistM       float64        `json:"dist_m,omitempty"`
	State       string         `json:"state,omitempty"`
	StateSrc    Source         `json:"state_src"`
	Seen        Source         `json:"seen"`
	Views       map[string]int `json:"views,omitempty"`
	Unconfirmed int            `json:"unconfirmed,omitempty"`
}

// SnapRelation is one relation; Anchor is where the robot stood when a
// robot near relation was set.
type SnapRelation struct {
	Relation
	Anchor *world.Point `json:"anchor,omitempty"`
}

// Snapshot returns the graph's facts.
func (g *Graph) Snapshot() Snapshot {
	s := Snapshot{Turn: g.turn, EmptyHand: g.emptyHand, Applied: maps.Clone(g.applied)}
	for _, e := range g.epochs {
		s.Epochs = append(s.Epochs, SnapEpoch{Task: e.task, Base: e.base})
	}
	s.Nodes = make([]SnapNode, 0, len(g.order))
	for _, n := range g.order {
		s.Nodes = append(s.Nodes, SnapNode{Ref: n.ref, Name: n.name, Class: n.class, ID: n.id, Kind: n.kind,
			Room: n.room, Pos: n.pos, ThetaDeg: n.thetaDeg, DistM: n.distM, State: n.state, StateSrc: n.stateSrc,
			Seen: n.seen, Views: maps.Clone(n.views), Unconfirmed: n.unconfirmed})
	}
	for _, r := range g.rels {
		s.Relations = append(s.Relations, SnapRelation{Relation: *r, Anchor: r.anchor})
	}
	return s
}

// Restore replaces the graph's facts with a snapshot's (keeping its
// staleness and frame). A snapshot whose relations name unknown refs, or
// that repeats a ref or lacks the robot, is an error and leaves the graph
// as it was: a checkpoint is read, not trusted.
func (g *Graph) Restore(s Snapshot) error {
	fresh := New(g.staleAfter, WithFrame(g.frame))
	fresh.nodes, fresh.order, fresh.byName = map[string]*node{}, nil, map[string][]*node{}
	for i, sn := range s.Nodes {
		if sn.Ref == "" {
			return fmt.Errorf("scene graph: nodes[%d]: no ref", i)
		}
		if _, dup := fresh.nodes[sn.Ref]; dup {
			return fmt.Errorf("scene graph: nodes[%d]: ref %q repeated", i, sn.Ref)
		}
		n := fresh.add(&node{ref: sn.Ref, name: sn.Name, class: sn.Class, id: sn.ID, kind: sn.Kind, room: sn.Room,
			pos: sn.Pos, thetaDeg: sn.ThetaDeg, distM: sn.DistM, state: sn.State, stateSrc: sn.StateSrc,
			seen: sn.Seen, views: maps.Clone(sn.Views), unconfirmed: sn.Unconfirmed})
		if n.id != "" {
			fresh.byID[n.id] = n
		}
	}
	if fresh.nodes[RobotRef] == nil {
		return fmt.Errorf("scene graph: no %q node", RobotRef)
	}
	for i, sr := range s.Relations {
		if fresh.nodes[sr.Subject] == nil || fresh.nodes[sr.Target] == nil {
			return fmt.Errorf("scene graph: relations[%d]: %s %s %s names an unknown ref", i, sr.Subject, sr.Kind, sr.Target)
		}
		r := sr.Relation
		r.anchor = sr.Anchor
		fresh.link(&r)
	}
	for _, e := range s.Epochs {
		fresh.epochs = append(fresh.epochs, epoch{task: e.Task, base: e.Base})
	}
	fresh.turn, fresh.emptyHand = s.Turn, s.EmptyHand
	if s.Applied != nil {
		fresh.applied = maps.Clone(s.Applied)
	}
	fresh.clockEpoch = g.clockEpoch + 1
	*g = *fresh
	return nil
}
