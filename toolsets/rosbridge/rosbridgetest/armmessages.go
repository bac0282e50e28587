package rosbridgetest

import (
	"bytes"
	"image"
	"image/color"
	"image/jpeg"
	"math"
	"time"
)

// The arm's topic rates, in ticks (the default tick is 20ms: joint states
// and tf 25 Hz, cameras, detections and the safety sensors 5 Hz).
const (
	armJointsEvery  = 2
	armCameraEvery  = 10
	armSensorsEvery = 10
)

// The arm's base on the table, and the cameras.
const (
	tableHeight = 0.75
	// a2, a3 are a UR5e's upper arm and forearm; d1 its shoulder height.
	urA2, urA3, urD1 = 0.425, 0.392, 0.163
)

// publishArm sends the arm's topics due at this tick. Called with
// Server.mu held.
func (s *Server) publishArm(tick uint64, now time.Time) {
	s.publishFault(now)
	s.publishActionStatus(now)
	s.publishExtra(tick)
	due := func(every, offset uint64) bool { return tick%every == offset%every }
	send := func(topic string, msg func() map[string]any) {
		if s.subscribed(topic) {
			s.deliverMsg(topic, msg(), false)
		}
	}
	if due(armJointsEvery, 0) {
		send(TopicJointStates, func() map[string]any { return s.jointState(now) })
		send(TopicTF, func() map[string]any { return s.armTF(now) })
	}
	if due(armCameraEvery, 3) {
		send(TopicWristCamera, func() map[string]any { return s.wristImage(now) })
		send(TopicSceneCamera, func() map[string]any { return s.sceneImage(now) })
	}
	if due(armSensorsEvery, 5) {
		send(TopicDetections, func() map[string]any { return s.detections(now) })
		send(TopicLightCurtain, func() map[string]any { return map[string]any{"data": s.arm.curtainBroken} })
		send(TopicPersonDistance, func() map[string]any { return map[string]any{"data": s.arm.personDistance} })
	}
}

func (s *Server) jointState(now time.Time) map[string]any {
	a := s.arm
	names := append(armJoints[:], gripperJoint)
	pos := append(a.joints[:], a.gripper)
	vel := make([]float64, len(pos))
	if len(a.goals) > 0 {
		for i := range armJoints {
			vel[i] = 0.3 // moving: the exact speed is not modelled
		}
	}
	return map[string]any{"header": header(now, ""), "name": names, "position": pos, "velocity": vel, "effort": make([]float64, len(pos))}
}

// toolPosition is tool0's position in base_link: a planar UR model (pan,
// shoulder lift, elbow), enough for a pose that follows the joints.
func toolPosition(j [6]float64) (x, y, z float64) {
	r := urA2*math.Cos(j[1]) + urA3*math.Cos(j[1]+j[2])
	z = urD1 - (urA2*math.Sin(j[1]) + urA3*math.Sin(j[1]+j[2]))
	return r * math.Cos(j[0]), r * math.Sin(j[0]), z
}

func transform(now time.Time, parent, child string, x, y, z, yaw float64) map[string]any {
	return map[string]any{"header": header(now, parent), "child_frame_id": child,
		"transform": map[string]any{"translation": vector3(x, y, z), "rotation": quaternion(yaw)}}
}

// armTF is base_link → tool0, moving with the joints.
func (s *Server) armTF(now time.Time) map[string]any {
	x, y, z := toolPosition(s.arm.joints)
	return map[string]any{"transforms": []any{transform(now, "base_link", "tool0", x, y, z, s.arm.joints[0]+s.arm.joints[5])}}
}

// tfStatic is the cell's fixed frames: world → base_link (the arm on the
// table), tool0 → wrist_camera, world → scene_camera.
func tfStatic(now time.Time) map[string]any {
	return map[string]any{"transforms": []any{
		transform(now, "world", "base_link", 0, 0, tableHeight, 0),
		transform(now, "tool0", "wrist_camera_optical_frame", 0, 0.06, 0.04, 0),
		transform(now, "world", "scene_camera_optical_frame", 0.9, 0, 1.6, math.Pi),
	}}
}

// mugPosition is where the mug is, in world.
func (s *Server) mugPosition() (x, y, z float64) {
	switch s.arm.mug {
	case mugInGripper:
		tx, ty, tz := toolPosition(s.arm.joints)
		return tx, ty, tz + tableHeight - 0.05
	case mugInBin:
		return 0.3, -0.35, tableHeight + 0.06
	}
	return 0.45, 0.15, tableHeight + 0.05
}

// detections are the mug and the bin as the scene camera's detector sees
// them (vision_msgs 4, ROS 2 Humble and later).
func (s *Server) detections(now time.Time) map[string]any {
	det := func(id, class string, score, x, y, z, sx, sy, sz float64) map[string]any {
		p := pose(x, y, 0)
		p["position"].(map[string]any)["z"] = z
		return map[string]any{"header": header(now, "world"), "id": id,
			"results": []any{map[string]any{"hypothesis": map[string]any{"class_id": class, "score": score},
				"pose": map[string]any{"pose": p, "covariance": zeros(36)}}},
			"bbox": map[string]any{"center": p, "size": vector3(sx, sy, sz)}}
	}
	mx, my, mz := s.mugPosition()
	return map[string]any{"header": header(now, "world"), "detections": []any{
		det("mug-1", "mug", 0.93, mx, my, mz, 0.09, 0.09, 0.1),
		det("bin-1", "bin", 0.88, 0.3, -0.35, tableHeight+0.08, 0.3, 0.25, 0.16),
	}}
}

// wristImage is a raw rgb8 frame whose colour says what the gripper
// holds (red: the mug) and follows the wrist.
func (s *Server) wristImage(now time.Time) map[string]any {
	const w, h = 32, 24
	data := make([]byte, 0, w*h*3)
	red := uint8(40)
	if s.arm.mug == mugInGripper {
		red = 220
	}
	shade := uint8(128 + 100*math.Sin(s.arm.joints[5]))
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			data = append(data, red, uint8(x*8), shade^uint8(y*4))
		}
	}
	return map[string]any{"header": header(now, "wrist_camera_optical_frame"), "height": h, "width": w,
		"encoding": "rgb8", "is_bigendian": 0, "step": w * 3, "data": data}
}

// sceneImage is a small JPEG of the table: the mug's spot is red while it
// stands there.
func (s *Server) sceneImage(now time.Time) map[string]any {
	img := image.NewRGBA(image.Rect(0, 0, 32, 24))
	for y := 0; y < 24; y++ {
		for x := 0; x < 32; x++ {
			c := color.RGBA{R: 120, G: 110, B: 100, A: 255}
			if s.arm.mug == mugOnTable && x >= 20 && x < 26 && y >= 6 && y < 12 {
				c = color.RGBA{R: 220, G: 30, B: 30, A: 255}
			}
			img.Set(x, y, c)
		}
	}
	var buf bytes.Buffer
	_ = jpeg.Encode(&buf, img, &jpeg.Options{Quality: 60}) // writing to memory cannot fail
	return map[string]any{"header": header(now, "scene_camera_optical_frame"), "format": "jpeg", "data": buf.Bytes()}
}
