package sim

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"

	"gopkg.in/yaml.v3"

	"github.com/thea-harness/thea/internal/readfile"
)

// World is a validated, immutable household: the static map and the initial
// state every server starts from. Servers copy what they mutate.
type World struct {
	Name      string
	Rooms     []Room
	Walls     []Segment
	Furniture []Furniture
	Objects   []Object
	Robot     Robot
	// SuccessProbability per manipulation or navigation tool; 1 when omitted.
	SuccessProbability map[string]float64
	// DetectionProbability is the chance that an object a camera sees is
	// reported among the observation's detections; 1 when omitted.
	DetectionProbability float64
	// Bounds encloses every room; planning and rendering use it.
	Bounds Rect
}

// Room is a named region of the floor.
type Room struct {
	Name    string
	Outline Polygon
}

// Furniture is an obstacle with an optional surface and containers.
type Furniture struct {
	Name, Class, Room string
	Footprint         Rect
	Surface           bool
	Containers        []Container
	// StandoffM is the gap navigate_to keeps between the robot's body and the
	// footprint when it arrives.
	StandoffM float64
	// Front is the one side navigate_to approaches from (north, south, east,
	// west), or "" for any side.
	Front string
}

// Container is a drawer of a piece of furniture; open or closed.
type Container struct {
	Name string
	Open bool
}

// Object is a graspable item and where it starts.
type Object struct {
	Name, Class string
	Relation    string // on | in
	Target      string // furniture (on) or container (in)
	Position    Vec
}

// Robot is the simulated body: a disc with an arm and cameras.
type Robot struct {
	RadiusM, ReachM float64
	Start           Pose
	Cameras         []Camera
}

// Pose is the base pose in the map frame.
type Pose struct {
	Pos      Vec
	ThetaDeg float64
}

// Camera is one simulated camera; View is "map" (a top-down local map around
// the robot) or "closeup" (what is within reach in front, or the held object).
type Camera struct {
	Name          string
	Width, Height int
	FovDeg        float64
	RangeM        float64
	View          string
}

// Tools whose outcome is drawn from the seeded source.
func probabilisticTools() []string {
	return []string{"pick_up", "place", "open_drawer", "close_drawer", "navigate_to"}
}

const (
	defaultWallThickness = 0.1
	defaultStandoff      = 0.35
	defaultMapRange      = 4.0
)

// DefaultWorldPath is the bundled household, relative to the repository root.
const DefaultWorldPath = "examples/household/world.yaml"

// LoadWorld reads and validates a world file.
func LoadWorld(ctx context.Context, path string) (*World, error) {
	data, err := readfile.Read(ctx, path, readfile.World)
	if err != nil {
		return nil, fmt.Errorf("load world: %w", err)
	}
	w, err := ParseWorld(data)
	if err != nil {
		return nil, fmt.Errorf("world %s: %w", path, err)
	}
	return w, nil
}

// DefaultWorld loads DefaultWorldPath from the working directory or the
// nearest parent holding it, so it works from the repository root and from a
// package directory alike.
func DefaultWorld(ctx context.Context) (*World, error) {
	dir, err := os.Getwd()
	if err != nil {
		return nil, fmt.Errorf("default world: %w", err)
	}
	for {
		p := filepath.Join(dir, DefaultWorldPath)
		if _, err := os.Stat(p); err == nil {
			return LoadWorld(ctx, p)
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return nil, fmt.Errorf("default world: %s not found in the working directory or its parents; pass --world", DefaultWorldPath)
		}
		dir = parent
	}
}

// ParseWorld decodes a world from YAML and validates it.
func ParseWorld(data []byte) (*World, error) {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	var f worldFile
	if err := dec.Decode(&f); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, errors.New("empty world file")
		}
		return nil, fmt.Errorf("decode: %w", err)
	}
	return compile(&f)
}

// roomAt names the room containing p, or "".
func (w *World) roomAt(p Vec) string {
	for _, r := range w.Rooms {
		if r.Outline.Contains(p) {
			return r.Name
		}
	}
	return ""
}

// obstacleDist is the distance from p to the nearest wall or footprint.
func (w *World) obstacleDist(p Vec) float64 {
	d := math.Inf(1)
	for _, s := range w.Walls {
		d = math.Min(d, s.Dist(p))
	}
	for _, f := range w.Furniture {
		d = math.Min(d, f.Footprint.Dist(p))
	}
	return d
}

// free reports whether the robot's disc centred at p touches nothing and
// stays inside the world.
func (w *World) free(p Vec) bool {
	return w.Bounds.Contains(p) && w.obstacleDist(p) >= w.Robot.RadiusM
}

func (w *World) furniture(name string) *Furniture {
	for i := range w.Furniture {
		if w.Furniture[i].Name == name {
			return &w.Furniture[i]
		}
	}
	return nil
}

// frontMid is the middle of the side a piece of furniture is approached
// from (its centre when any side will do): where a drawer's contents sit.
func (f *Furniture) frontMid() Vec {
	r, c := f.Footprint, f.Footprint.Center()
	switch f.Front {
	case "north":
		return Vec{c.X, r.Max.Y}
	case "south":
		return Vec{c.X, r.Min.Y}
	case "east":
		return Vec{r.Max.X, c.Y}
	case "west":
		return Vec{r.Min.X, c.Y}
	}
	return c
}

// containerOwner is the furniture holding a container, or nil.
func (w *World) containerOwner(name string) *Furniture {
	for i := range w.Furniture {
		for _, c := range w.Furniture[i].Containers {
			if c.Name == name {
				return &w.Furniture[i]
			}
		}
	}
	return nil
}
