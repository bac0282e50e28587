package rosbridge

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/thea-harness/thea/engine"
	"github.com/thea-harness/thea/schema"
	"github.com/thea-harness/thea/toolsets/rosbridge/wire"
)

// advertised are the topics published to, with their types.
func (p *plan) advertised() map[string]string {
	out := map[string]string{}
	for _, tp := range p.tools {
		if pd := tp.decl.Publish; pd != nil {
			out[pd.Topic] = pd.Type
		}
	}
	if p.cfg.CmdVel != "" {
		out[p.cfg.CmdVel] = typeTwist
	}
	return out
}

// fresh returns the first message of topic received after since, waiting
// at most maxAge for it.
func (c *conn) fresh(ctx context.Context, topic string, since time.Time, maxAge time.Duration) (wire.Message, error) {
	wctx, cancel := context.WithTimeout(ctx, maxAge)
	defer cancel()
	m, err := c.cl.WaitMessage(wctx, topic, since)
	if err != nil {
		return m, fmt.Errorf("no message on %s within max_age %s (the topic is silent or the socket is down)", topic, maxAge)
	}
	return m, nil
}

// observe assembles an Observation from messages received after since
// (the call's start): evidence of the state after every earlier motion.
func (c *conn) observe(ctx context.Context, since time.Time) (engine.Envelope, error) {
	o := c.b.plan.cfg.Observation
	maxAge := duration(o.MaxAge)
	msgs := map[string]wire.Message{}
	for _, s := range c.b.plan.subscriptions() {
		if cl := c.b.plan.cfg.Clearance; cl != nil && s.Topic == cl.Topic {
			continue
		}
		m, err := c.fresh(ctx, s.Topic, since, maxAge)
		if err != nil {
			return engine.Failure(o.Tool + ": " + err.Error()), nil
		}
		msgs[s.Topic] = m
	}
	var scan *wire.Message
	if cl := c.b.plan.cfg.Clearance; cl != nil {
		m, err := c.fresh(ctx, cl.Topic, since, duration(cl.MaxAge))
		if err != nil {
			return engine.Failure(o.Tool + ": " + err.Error()), nil
		}
		scan = &m
	}
	obs, err := c.b.plan.assemble(msgs, scan, c.b.tc.Body)
	if err != nil {
		return engine.Failure(o.Tool + ": " + err.Error()), nil
	}
	c.droppedEvent(obs)
	return obs, nil
}

// assemble builds the observation envelope from one message per topic.
func (p *plan) assemble(msgs map[string]wire.Message, scan *wire.Message, emb schema.Embodiment) (engine.Envelope, error) {
	o := p.cfg.Observation
	v := map[string]any{}
	var summary []string
	env := engine.Envelope{Success: true, Value: v}
	if o.Pose != nil {
		pose, err := odomPose(msgs[o.Pose.Topic].Data)
		if err != nil {
			return env, fmt.Errorf("pose from %s: %w", o.Pose.Topic, err)
		}
		v["pose"] = pose
		summary = append(summary, fmt.Sprintf("at (%.2f, %.2f) heading %.0f°", pose.X, pose.Y, pose.ThetaDeg))
	}
	imgs, images, dropped := p.cameraFrames(msgs, emb)
	env.Images = append(env.Images, imgs...)
	if len(images) > 0 {
		v["images"] = images
	}
	if len(dropped) > 0 {
		v["truncated"] = strings.Join(dropped, "; ")
	}
	if len(o.State) > 0 {
		state := map[string]any{}
		for _, k := range slices.Sorted(maps.Keys(o.State)) {
			var msg any
			if err := json.Unmarshal(msgs[o.State[k].Topic].Data, &msg); err != nil {
				return env, fmt.Errorf("state.%s from %s: %w", k, o.State[k].Topic, err)
			}
			val, err := p.stateValue(k, msg)
			if err != nil {
				return env, fmt.Errorf("state.%s from %s: %w", k, o.State[k].Topic, err)
			}
			state[k] = val
			summary = append(summary, k+" "+renderValue(val))
		}
		v["state"] = state
	}
	if scan != nil {
		cl, err := p.clearance(scan.Data, emb)
		if err != nil {
			return env, fmt.Errorf("clearance from %s: %w", p.cfg.Clearance.Topic, err)
		}
		v["clearance"] = cl
	}
	v["summary"] = strings.Join(summary, "; ")
	return env, nil
}

type odometry struct {
	Pose struct {
		Pose struct {
			Position    struct{ X, Y wire.Float }
			Orientation struct{ X, Y, Z, W wire.Float }
		}
	}
}

func odomPose(raw json.RawMessage) (schema.Pose, error) {
	var od odometry
	if err := json.Unmarshal(raw, &od); err != nil {
		return schema.Pose{}, err
	}
	p, q := od.Pose.Pose.Position, od.Pose.Pose.Orientation
	if !p.X.Valid || !p.Y.Valid || !q.Z.Valid || !q.W.Valid {
		return schema.Pose{}, fmt.Errorf("the position or orientation is null (NaN or inf)")
	}
	yaw := math.Atan2(2*(q.W.V*q.Z.V+q.X.V*q.Y.V), 1-2*(q.Y.V*q.Y.V+q.Z.V*q.Z.V))
	return schema.Pose{X: round3(p.X.V), Y: round3(p.Y.V), ThetaDeg: round3(yaw * 180 / math.Pi)}, nil
}

func round3(x float64) float64 { return math.Round(x*1000) / 1000 }

func compressedImage(cam string, raw json.RawMessage, emb schema.Embodiment) (schema.Image, error) {
	var m struct {
		Format string
		Data   wire.Bytes
	}
	if err := json.Unmarshal(raw, &m); err != nil {
		return schema.Image{}, err
	}
	mime := ""
	switch f := strings.ToLower(m.Format); {
	case strings.Contains(f, "jpeg"), strings.Contains(f, "jpg"):
		mime = "image/jpeg"
	case strings.Contains(f, "png"):
		mime = "image/png"
	default:
		return schema.Image{}, fmt.Errorf("format %q is neither jpeg nor png", m.Format)
	}
	if len(m.Data) == 0 {
		return schema.Image{}, fmt.Errorf("empty image")
	}
	img := schema.Image{Camera: cam, MIME: mime, Data: m.Data}
	for _, c := range emb.Cameras {
		if c.Name == cam {
			img.Width, img.Height = c.Width, c.Height
		}
	}
	return img, nil
}

// clearanceTool answers the latest scan younger than max_age (waiting up
// to max_age for one).
func (c *conn) clearanceTool(ctx context.Context) (engine.Envelope, error) {
	cl := c.b.plan.cfg.Clearance
	maxAge := duration(cl.MaxAge)
	m, err := c.fresh(ctx, cl.Topic, time.Now().Add(-maxAge), maxAge)
	if err != nil {
		return engine.Failure(cl.Tool + ": " + err.Error()), nil
	}
	if age := m.Age(time.Now()); age > maxAge {
		return engine.Failure(fmt.Sprintf("%s: the scan on %s is %s old, older than max_age %s", cl.Tool, cl.Topic, age.Round(time.Millisecond), maxAge)), nil
	}
	reading, err := c.b.plan.clearance(m.Data, c.b.tc.Body)
	if err != nil {
		return engine.Failure(fmt.Sprintf("%s: %v", cl.Tool, err)), nil
	}
	return engine.Envelope{Success: true, Value: map[string]any{"clearance": reading}}, nil
}
