package rosbridge

import (
	"maps"
	"reflect"
	"slices"

	"github.com/expr-lang/expr"
	"github.com/expr-lang/expr/vm"

	"github.com/thea-harness/thea/toolsets/rosbridge/perception"
)

// compilePerception checks the observation's perception sources and
// compiles their exprs; every problem is a FieldError at its path.
func (p *plan) compilePerception(fail func(path, format string, args ...any)) []error {
	o := p.cfg.Observation
	var errs []error
	if o.Pose != nil {
		p.checkPose("observation.pose", *o.Pose, fail)
	}
	if o.EndEffector != nil {
		p.checkPose("observation.end_effector", *o.EndEffector, fail)
	}
	for _, k := range slices.Sorted(maps.Keys(o.Frames)) {
		p.checkPose("observation.frames."+k, o.Frames[k], fail)
	}
	p.detections = map[string]*vm.Program{}
	for _, k := range slices.Sorted(maps.Keys(o.Detections)) {
		d, at := o.Detections[k], "observation.detections."+k
		switch {
		case d.Value != "":
			prog, err := compileExpr(d.Value, "msg", nil, at+".value", expr.AsKind(reflect.Slice))
			if err != nil {
				errs = append(errs, err)
				continue
			}
			p.detections[k] = prog
		case d.Type != typeDetection2DArray && d.Type != typeDetection3DArray:
			fail(at+".type", "%s has no default reading: use %s or %s, or give value (an expr over msg giving a list of detections)", d.Type, typeDetection3DArray, typeDetection2DArray)
		}
		if d.Frame != "" && o.TF == nil {
			fail(at+".frame", "giving positions in %s transforms them through TF: declare observation.tf", d.Frame)
		}
	}
	if h := o.Held; h != nil {
		prog, err := compileExpr(h.Value, "msg", nil, "observation.held.value")
		if err != nil {
			errs = append(errs, err)
		}
		p.held = prog
	}
	if j := o.Joints; j != nil && j.Type != "" && j.Type != typeJointState {
		fail("observation.joints.type", "joints are read from %s", typeJointState)
	}
	return errs
}

// checkPose: exactly one of topic and tf, a lookup needs the TF topics,
// and a topic is an Odometry or a PoseStamped.
func (p *plan) checkPose(at string, d PoseDecl, fail func(path, format string, args ...any)) {
	switch {
	case (d.Topic == "") == (d.TF == nil):
		fail(at, "a pose is read from exactly one of topic (an Odometry or PoseStamped) and tf (a lookup: parent, child)")
	case d.TF != nil && p.cfg.Observation.TF == nil:
		fail(at+".tf", "a TF lookup reads the TF topics: declare observation.tf (tf: {} takes /tf and /tf_static)")
	case d.TF != nil && d.Type != "":
		fail(at+".type", "a TF lookup reads %s; type is for a topic", perception.TypeTFMessage)
	case d.Type != "" && d.Type != typeOdometry && d.Type != typePoseStamped:
		fail(at+".type", "a pose is read from %s or %s", typeOdometry, typePoseStamped)
	}
}
