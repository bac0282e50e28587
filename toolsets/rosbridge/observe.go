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

	"github.com/thea-harness/thea/runlog"
	"github.com/thea-harness/thea/schema"
	"github.com/thea-harness/thea/toolsets/rosbridge/perception"
	"github.com/thea-harness/thea/toolsets/rosbridge/wire"
	"github.com/thea-harness/thea/world"
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
		if ctx.Err() != nil {
			return m, fmt.Errorf("waiting for %s: %w", topic, ctx.Err())
		}
		return m, fmt.Errorf("no message on %s within max_age %s (the topic is silent or the socket is down)", topic, maxAge)
	}
	return m, nil
}

// observe assembles an Observation from each source's latest message when
// it completes (see gather), with every source's age.
func (c *conn) observe(ctx context.Context) (runlog.Envelope, error) {
	o := c.b.plan.cfg.Observation
	srcs := c.b.plan.sources()
	deadline := time.Now().Add(duration(o.MaxAge))
	var (
		g   gathered
		obs runlog.Envelope
	)
	for {
		var err error
		g, err = c.gather(ctx, srcs, c.b.motionEnded())
		if err != nil {
			if ctx.Err() != nil {
				return runlog.Envelope{}, fmt.Errorf("%s: %w", o.Tool, ctx.Err())
			}
			return runlog.Failure(o.Tool + ": " + err.Error()), nil
		}
		var scan *wire.Message
		if cl := c.b.plan.cfg.Clearance; cl != nil {
			m := g.msgs[cl.Topic]
			scan = &m
		}
		obs, err = c.b.plan.assemble(g.msgs, scan, c.b.tc.Body)
		if err == nil {
			err = c.b.plan.perceive(obs.Value, g)
		}
		if err == nil {
			break
		}
		// A fresh connection may read its first detections before its
		// first transform: while the TF tree is still empty, wait for one
		// (within the observation's max_age) rather than fail a detection
		// that needs it. A tree that has transforms but not the one needed
		// fails at once, naming it.
		if c.b.tf == nil || len(g.tree) > 0 || !time.Now().Before(deadline) {
			return runlog.Failure(o.Tool + ": " + err.Error()), nil
		}
		tree, changed := c.b.tf.Snapshot()
		if len(tree) == 0 {
			wctx, cancel := context.WithDeadline(ctx, deadline)
			select {
			case <-changed:
			case <-wctx.Done():
			}
			cancel()
			if ctx.Err() != nil {
				return runlog.Envelope{}, fmt.Errorf("%s: %w", o.Tool, ctx.Err())
			}
		}
	}
	now := time.Now()
	ages := map[string]any{}
	for _, s := range srcs {
		if g.static[s.name] {
			ages[s.name] = 0.0 // a fixed transform is never old
			continue
		}
		ages[s.name] = round3(now.Sub(g.at[s.name]).Seconds())
	}
	obs.Value[world.FieldAgeS] = ages
	// What the synthesis built is read by the one decoder of an
	// observation, as any back-end's reply is: a shape it gets wrong fails
	// here, naming why.
	if _, err := world.DecodeValue(obs.Value); err != nil {
		return runlog.Failure(o.Tool + ": the observation synthesised from the topics: " + err.Error()), nil
	}
	c.droppedEvent(obs)
	return obs, nil
}

// source is one thing an observation reads from a topic, and how new its
// message must be.
type source struct {
	name     string // as age_s names it: pose, cameras.front, state.battery, clearance
	topic    string
	maxAge   time.Duration
	evidence bool
	// lookup, when set, reads TF (topic is the TF topic): the reading's
	// time is its chain's oldest dynamic transform's.
	lookup *LookupDecl
}

// sources lists what the observation reads (the clearance scan is evidence
// within clearance.max_age).
func (p *plan) sources() []source {
	o := p.cfg.Observation
	if o == nil {
		return nil
	}
	def := duration(o.MaxAge)
	of := func(name, topic string, f Freshness) source {
		s := source{name: name, topic: topic, maxAge: def, evidence: f.Evidence}
		if f.MaxAge != "" {
			s.maxAge = duration(f.MaxAge)
		}
		return s
	}
	var out []source
	for _, cam := range slices.Sorted(maps.Keys(o.Cameras)) {
		out = append(out, of("cameras."+cam, o.Cameras[cam].Topic, o.Cameras[cam].Freshness))
	}
	if o.Pose != nil {
		out = append(out, p.poseSource("pose", *o.Pose, of))
	}
	for _, k := range slices.Sorted(maps.Keys(o.State)) {
		out = append(out, of("state."+k, o.State[k].Topic, o.State[k].Freshness))
	}
	out = append(out, p.perceptionSources(of)...)
	if cl := p.cfg.Clearance; cl != nil {
		out = append(out, source{name: "clearance", topic: cl.Topic, maxAge: duration(cl.MaxAge), evidence: true})
	}
	return out
}

// gathered is what an observation read: each topic source's message, the
// TF tree, and when each source's reading arrived (by source name).
type gathered struct {
	msgs map[string]wire.Message
	tree perception.Tree
	at   map[string]time.Time
	// static are the lookups whose chain is all /tf_static.
	static map[string]bool
}

// gather takes each source's latest message once all are fresh enough at
// the same moment: an evidence source's message is newer than motion (the
// end of the last physical call), and every message is at most its
// source's max_age old. It waits only for the sources that are not, each
// at most its own max_age from the start; a source still not fresh then
// fails, naming its topic and its message's age. A TF lookup's reading is
// its chain's oldest dynamic transform (a static chain is always fresh).
//
// The messages are read from the connection's latest-message cache at the
// end, so a change that arrived while another source was waited for (a
// light curtain breaking) is in the observation.
func (c *conn) gather(ctx context.Context, srcs []source, motion time.Time) (gathered, error) {
	start := time.Now()
	for {
		now := time.Now()
		g := gathered{msgs: make(map[string]wire.Message, len(srcs)), at: make(map[string]time.Time, len(srcs)), static: map[string]bool{}}
		var changed <-chan struct{}
		if c.b.tf != nil {
			g.tree, changed = c.b.tf.Snapshot()
		}
		var pending *source
		for i := range srcs {
			s := &srcs[i]
			at, ok := c.readingAt(s, g, now)
			if !ok || !s.fresh(at, now, motion) {
				pending = s
				break
			}
			g.at[s.name] = at
		}
		if pending == nil {
			return g, nil
		}
		deadline := start.Add(pending.maxAge)
		if !now.Before(deadline) {
			return gathered{}, pending.stale(c, g.tree, now, motion)
		}
		wctx, cancel := context.WithDeadline(ctx, deadline)
		var err error
		if pending.lookup != nil {
			select {
			case <-changed:
			case <-wctx.Done():
			}
		} else {
			after := now.Add(-pending.maxAge)
			if pending.evidence && motion.After(after) {
				after = motion
			}
			_, err = c.cl.WaitMessage(wctx, pending.topic, after)
		}
		cancel()
		if ctx.Err() != nil {
			return gathered{}, ctx.Err()
		}
		if err != nil && wctx.Err() == nil {
			return gathered{}, fmt.Errorf("%s: %w", pending.name, err) // not subscribed
		}
	}
}

// readingAt is when s's reading arrived, keeping a topic source's message
// in g; false when there is none (no message, no path in the TF tree).
func (c *conn) readingAt(s *source, g gathered, now time.Time) (time.Time, bool) {
	if s.lookup != nil {
		_, at, static, err := g.tree.Lookup(s.lookup.Parent, s.lookup.Child)
		if err != nil {
			return time.Time{}, false
		}
		if static {
			g.static[s.name] = true
			return now, true
		}
		return at, true
	}
	m, ok := c.cl.Latest(s.topic)
	if !ok {
		return time.Time{}, false
	}
	g.msgs[s.topic] = m
	return m.Received, true
}

// fresh reports whether a reading that arrived at is new enough for s.
func (s *source) fresh(at, now, motion time.Time) bool {
	if s.evidence && !at.After(motion) {
		return false
	}
	return now.Sub(at) <= s.maxAge
}

// stale says why s has no fresh enough reading: none came (or no TF path),
// or the latest is older than the last motion or than max_age.
func (s *source) stale(c *conn, tree perception.Tree, now, motion time.Time) error {
	var at time.Time
	if s.lookup != nil {
		_, t, static, err := tree.Lookup(s.lookup.Parent, s.lookup.Child)
		if err != nil {
			if bad := c.b.tf.Refused(); bad != "" {
				err = fmt.Errorf("%w; the last transform refused: %s", err, bad)
			}
			return fmt.Errorf("%s: %w, within its max_age %s", s.name, err, s.maxAge)
		}
		if static {
			t = now
		}
		at = t
	} else {
		m, ok := c.cl.Latest(s.topic)
		if !ok {
			return fmt.Errorf("%s: no message on %s within its max_age %s (the topic is silent or the socket is down)", s.name, s.topic, s.maxAge)
		}
		at = m.Received
	}
	what := "on " + s.topic
	if s.lookup != nil {
		what = fmt.Sprintf("of %s in %s on %s", s.lookup.Child, s.lookup.Parent, s.topic)
	}
	if s.evidence && !at.After(motion) {
		return fmt.Errorf("%s: no message %s since the last motion ended %s ago, within its max_age %s (evidence of a motion's outcome must be newer than the motion)",
			s.name, what, now.Sub(motion).Round(time.Millisecond), s.maxAge)
	}
	return fmt.Errorf("%s: the latest message %s is %s old, older than its max_age %s", s.name, what, now.Sub(at).Round(time.Millisecond), s.maxAge)
}

// assemble builds the observation envelope from one message per topic.
func (p *plan) assemble(msgs map[string]wire.Message, scan *wire.Message, emb schema.Embodiment) (runlog.Envelope, error) {
	o := p.cfg.Observation
	v := map[string]any{}
	var summary []string
	env := runlog.Envelope{Success: true, Value: v}
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

func round3(x float64) float64 { return math.Round(x*1000) / 1000 }

func compressedImage(cam string, raw json.RawMessage, emb schema.Embodiment) (world.Image, error) {
	var m struct {
		Format string
		Data   wire.Bytes
	}
	if err := json.Unmarshal(raw, &m); err != nil {
		return world.Image{}, err
	}
	mime := ""
	switch f := strings.ToLower(m.Format); {
	case strings.Contains(f, "jpeg"), strings.Contains(f, "jpg"):
		mime = "image/jpeg"
	case strings.Contains(f, "png"):
		mime = "image/png"
	default:
		return world.Image{}, fmt.Errorf("format %q is neither jpeg nor png", m.Format)
	}
	if len(m.Data) == 0 {
		return world.Image{}, fmt.Errorf("empty image")
	}
	img := world.Image{Camera: cam, MIME: mime, Data: m.Data}
	for _, c := range emb.Cameras {
		if c.Name == cam {
			img.Width, img.Height = c.Width, c.Height
		}
	}
	return img, nil
}

// clearanceTool answers the latest scan younger than max_age (waiting up
// to max_age for one).
func (c *conn) clearanceTool(ctx context.Context) (runlog.Envelope, error) {
	cl := c.b.plan.cfg.Clearance
	maxAge := duration(cl.MaxAge)
	m, err := c.fresh(ctx, cl.Topic, time.Now().Add(-maxAge), maxAge)
	if err != nil {
		return runlog.Failure(cl.Tool + ": " + err.Error()), nil
	}
	if age := m.Age(time.Now()); age > maxAge {
		return runlog.Failure(fmt.Sprintf("%s: the scan on %s is %s old, older than max_age %s", cl.Tool, cl.Topic, age.Round(time.Millisecond), maxAge)), nil
	}
	reading, err := c.b.plan.clearance(m.Data, c.b.tc.Body)
	if err != nil {
		return runlog.Failure(fmt.Sprintf("%s: %v", cl.Tool, err)), nil
	}
	return runlog.Envelope{Success: true, Value: map[string]any{"clearance": reading}}, nil
}
