// Package graph reads a running ROS 2 graph through rosapi: its topics,
// services and action servers with their types (Rosapi), the definitions
// of their messages (TypeDef, checked before use because rosapi is outside
// Thea), a bounded description of the whole graph (ReadGraph) and a few
// messages of chosen topics (SampleTopics).
//
// It knows nothing of a spec: the toolset's live check (`thea validate
// --live`) holds a section against what Rosapi answers, and `thea init
// --from-ros` (scaffold) drafts a spec from ReadGraph and SampleTopics.
// Both speak through the transport, toolsets/rosbridge/wire.
package graph
