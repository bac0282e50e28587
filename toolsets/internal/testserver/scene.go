package testserver

import (
	"context"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// SceneEnv, set to anything, adds the tool observe_scene: a mobile
// manipulator's observation that reports things in two groups at once, as
// real back-ends do: the drawer drawer_top as a detection and in
// state.drawers, the door front_door as a detection and in state.doors,
// and the mug it holds as a detection and as held.
const SceneEnv = "THEA_TEST_SCENE"

// sceneObservation is observe_scene's JSON text.
const sceneObservation = `{
 "pose": {"x": 1, "y": 0.5, "theta_deg": 90, "room": "kitchen"},
 "held": "mug",
 "detections": [
  {"name": "drawer_top", "class": "drawer", "camera": "head", "room": "kitchen", "relation": "in", "target": "cabinet", "position": {"x": 1.2, "y": 1.4}, "visible": true},
  {"name": "front_door", "class": "door", "camera": "head", "room": "kitchen", "visible": true},
  {"name": "mug", "class": "cup", "camera": "wrist", "room": "kitchen", "position": {"x": 1.1, "y": 0.6}, "visible": true}
 ],
 "state": {"drawers": {"drawer_top": "open"}, "doors": {"front_door": "closed"}, "battery": 0.8},
 "summary": "In the kitchen, holding the mug; the top drawer is open"
}`

func addSceneTools(s *server.MCPServer) {
	s.AddTool(mcp.NewTool("observe_scene", mcp.WithDescription("an observation reporting things in two groups at once")),
		func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return mcp.NewToolResultText(sceneObservation), nil
		})
}
