package perception

import (
	"encoding/json"
	"fmt"
	"maps"
	"sync"

	"github.com/thea-harness/thea/toolsets/rosbridge/wire"
)

// Types of the TF topics.
const TypeTFMessage = "tf2_msgs/msg/TFMessage"

// maxTFFrames bounds the tree a hostile graph can grow: a transform of a
// new child beyond it is dropped (and said in lookups' errors).
const maxTFFrames = 1024

// TFQueueLength is rosbridge's queue for the TF topics: /tf_static's
// latched messages (one per static publisher) arrive in one burst when the
// subscription starts, and each is needed, not just the latest.
const TFQueueLength = 100

// Buffer folds every /tf and /tf_static message into one tree, kept for
// the toolset's life: /tf_static is latched, sent once per subscription
// (again after a reconnect), so its transforms are kept, never aged.
type Buffer struct {
	mu      sync.Mutex
	tree    Tree
	changed chan struct{} // closed and replaced at every message
	bad     string        // the last transform refused, for lookup errors
}

func NewBuffer() *Buffer {
	return &Buffer{tree: Tree{}, changed: make(chan struct{})}
}

// Receiver folds the messages of one TF topic in.
func (b *Buffer) Receiver(static bool) func(wire.Message) {
	return func(m wire.Message) { b.add(m, static) }
}

func (b *Buffer) add(m wire.Message, static bool) {
	links, bad := DecodeTF(m.Data)
	b.mu.Lock()
	defer b.mu.Unlock()
	for child, l := range links {
		if _, ok := b.tree[child]; !ok && len(b.tree) >= maxTFFrames {
			bad = fmt.Sprintf("transform to %s dropped: the tree already has %d frames", child, maxTFFrames)
			continue
		}
		l.At, l.Static = m.Received, static
		b.tree[child] = l
	}
	if bad != "" {
		b.bad = m.Topic + ": " + bad
	}
	close(b.changed)
	b.changed = make(chan struct{})
}

// Snapshot is a copy of the tree now and a channel closed at the next
// message.
func (b *Buffer) Snapshot() (Tree, <-chan struct{}) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return maps.Clone(b.tree), b.changed
}

// Refused is the last transform refused, "" for none.
func (b *Buffer) Refused() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.bad
}

type tfMessage struct {
	Transforms []struct {
		Header struct {
			FrameID string `json:"frame_id"`
		} `json:"header"`
		ChildFrameID string `json:"child_frame_id"`
		Transform    struct {
			Translation struct{ X, Y, Z wire.Float }    `json:"translation"`
			Rotation    struct{ X, Y, Z, W wire.Float } `json:"rotation"`
		} `json:"transform"`
	} `json:"transforms"`
}

// DecodeTF reads a tf2_msgs/msg/TFMessage from an untrusted graph: each
// usable transform by child frame, and why the last unusable one was
// refused (no frame, a frame its own parent, a null number, a zero
// rotation).
func DecodeTF(raw json.RawMessage) (map[string]Link, string) {
	var m tfMessage
	if err := json.Unmarshal(raw, &m); err != nil {
		return nil, fmt.Sprintf("not a TFMessage: %v", err)
	}
	out := map[string]Link{}
	bad := ""
	for i, t := range m.Transforms {
		parent, child := FrameName(t.Header.FrameID), FrameName(t.ChildFrameID)
		tr, rot := t.Transform.Translation, t.Transform.Rotation
		q, ok := Quat{rot.X.V, rot.Y.V, rot.Z.V, rot.W.V}.Normalized()
		switch {
		case parent == "" || child == "":
			bad = fmt.Sprintf("transforms[%d] has no header.frame_id or child_frame_id", i)
		case parent == child:
			bad = fmt.Sprintf("transforms[%d]: %s is its own parent", i, child)
		case !tr.X.Valid || !tr.Y.Valid || !tr.Z.Valid || !rot.X.Valid || !rot.Y.Valid || !rot.Z.Valid || !rot.W.Valid:
			bad = fmt.Sprintf("transforms[%d] (%s→%s) has a null number (NaN or inf)", i, parent, child)
		case !ok:
			bad = fmt.Sprintf("transforms[%d] (%s→%s) has a zero rotation", i, parent, child)
		default:
			out[child] = Link{Parent: parent, Transform: Transform{T: Vec3{tr.X.V, tr.Y.V, tr.Z.V}, R: q}}
		}
	}
	return out, bad
}
