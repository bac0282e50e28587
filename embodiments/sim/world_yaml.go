package sim

// The world file's YAML shape, decoded strictly (unknown fields are errors)
// and then compiled into a World by validate. The format, with an example: docs/formats/world-file.md.

type worldFile struct {
	Name               string             `yaml:"name"`
	Rooms              []roomFile         `yaml:"rooms"`
	Walls              []wallFile         `yaml:"walls"`
	Furniture          []furnitureFile    `yaml:"furniture"`
	Objects            []objectFile       `yaml:"objects"`
	Robot              robotFile          `yaml:"robot"`
	SuccessProbability map[string]float64 `yaml:"success_probability"`
	// DetectionProbability is a pointer so an absent field (certain
	// detection) differs from 0 (a detector that never reports).
	DetectionProbability *float64 `yaml:"detection_probability"`
}

type rectFile struct {
	Min []float64 `yaml:"min"`
	Max []float64 `yaml:"max"`
}

type roomFile struct {
	Name    string      `yaml:"name"`
	Rect    *rectFile   `yaml:"rect"`
	Polygon [][]float64 `yaml:"polygon"`
}

type doorwayFile struct {
	AtM    float64 `yaml:"at_m"`
	WidthM float64 `yaml:"width_m"`
}

type wallFile struct {
	From       []float64     `yaml:"from"`
	To         []float64     `yaml:"to"`
	ThicknessM *float64      `yaml:"thickness_m"`
	Doorways   []doorwayFile `yaml:"doorways"`
}

type containerFile struct {
	Name  string `yaml:"name"`
	State string `yaml:"state"`
}

type furnitureFile struct {
	Name       string          `yaml:"name"`
	Class      string          `yaml:"class"`
	Room       string          `yaml:"room"`
	Footprint  rectFile        `yaml:"footprint"`
	Surface    bool            `yaml:"surface"`
	Containers []containerFile `yaml:"containers"`
	StandoffM  *float64        `yaml:"standoff_m"`
	Front      string          `yaml:"front"`
}

type objectFile struct {
	Name     string    `yaml:"name"`
	Class    string    `yaml:"class"`
	Relation string    `yaml:"relation"`
	Target   string    `yaml:"target"`
	Position []float64 `yaml:"position"`
}

type poseFile struct {
	X        float64 `yaml:"x"`
	Y        float64 `yaml:"y"`
	ThetaDeg float64 `yaml:"theta_deg"`
}

type cameraFile struct {
	Name   string   `yaml:"name"`
	Width  int      `yaml:"width"`
	Height int      `yaml:"height"`
	FovDeg float64  `yaml:"fov_deg"`
	RangeM *float64 `yaml:"range_m"`
}

type robotFile struct {
	RadiusM float64      `yaml:"radius_m"`
	ReachM  float64      `yaml:"reach_m"`
	Start   poseFile     `yaml:"start"`
	Cameras []cameraFile `yaml:"cameras"`
}
