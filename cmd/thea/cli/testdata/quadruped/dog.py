#!/usr/bin/env python3
"""A quadruped-like MCP back-end over stdio (standard library only): two
cameras, eight clearance sectors, a front door it can open. The door's
detection carries no position and no support (a camera that names what it
sees, nothing more), seen by the front and the rear camera in turn; a ball's
carries a position and a tracker's id. Its door's state is in state.doors."""
import json
import sys

SECTORS = ["front", "front_left", "left", "rear_left", "rear", "rear_right", "right", "front_right"]
state = {"x": 0.0, "door": "closed", "runs": 0, "turn": 0}


def clearance():
    c = {s: 2.0 for s in SECTORS}
    c["front"] = round(3.0 - state["x"], 3)
    return c


def observe(args):
    state["turn"] += 1
    cam = "front" if state["turn"] % 2 else "rear"
    obs = {"success": True,
           "clearance": clearance(),
           "pose": {"x": state["x"], "y": 0, "theta_deg": 0, "room": "hall"},
           "detections": [{"name": "front_door", "class": "door", "camera": cam, "room": "hall", "visible": True},
                          {"name": "ball", "class": "toy", "camera": "front", "visible": True,
                           "position": {"x": 1.5, "y": -0.4}, "id": "track-3"}],
           "state": {"doors": {"front_door": state["door"]}, "battery": 0.9},
           "summary": "In the hall; the front door is %s." % state["door"]}
    if args.get("run_id"):
        obs["run_id"] = args["run_id"]
    return obs


def walk(args):
    state["x"] = round(state["x"] + float(args["distance_m"]), 3)
    state["runs"] += 1
    return {"success": True, "run_id": "run-%d" % state["runs"]}


def open_door(args):
    if args.get("door") != "front_door":
        return {"success": False, "reason": "no door %r" % args.get("door")}
    state["door"] = "open"
    state["runs"] += 1
    return {"success": True, "run_id": "run-%d" % state["runs"]}


def check_door(args):
    ok = state["door"] == "open"
    return {"success": True, "verdict": {"status": "success" if ok else "failure",
                                         "reason": "the door is %s" % state["door"]}}


OBJ = {"type": "object"}
TOOLS = {
    "observe": (observe, "Cameras, pose, clearance.", dict(OBJ, properties={"run_id": {"type": "string"}})),
    "get_clearance": (lambda a: dict(success=True, **clearance()), "Clearance by sector.", dict(OBJ, properties={})),
    "walk": (walk, "Walk in a direction.", dict(OBJ, properties={"distance_m": {"type": "number"}, "direction": {"type": "string"}},
                                               required=["distance_m", "direction"])),
    "open_door": (open_door, "Open a door.", dict(OBJ, properties={"door": {"type": "string"}}, required=["door"])),
    "check_door": (check_door, "Check a door is open.", dict(OBJ, properties={"door": {"type": "string"}})),
    "stop": (lambda a: {"success": True}, "Stop at once.", dict(OBJ, properties={})),
}


def handle(msg):
    method, params = msg.get("method"), msg.get("params") or {}
    if method == "initialize":
        return {"protocolVersion": params.get("protocolVersion", "2025-06-18"),
                "capabilities": {"tools": {}}, "serverInfo": {"name": "dog", "version": "1"}}
    if method == "ping":
        return {}
    if method == "tools/list":
        return {"tools": [{"name": n, "description": d, "inputSchema": s} for n, (_, d, s) in TOOLS.items()]}
    if method == "tools/call":
        name = params.get("name")
        env = TOOLS[name][0](params.get("arguments") or {}) if name in TOOLS else {"success": False, "reason": "no tool"}
        return {"content": [{"type": "text", "text": json.dumps(env)}], "isError": not env["success"]}
    raise LookupError(method)


for line in sys.stdin:
    if not line.strip():
        continue
    msg = json.loads(line)
    if "id" not in msg:
        continue
    try:
        reply = {"jsonrpc": "2.0", "id": msg["id"], "result": handle(msg)}
    except LookupError as e:
        reply = {"jsonrpc": "2.0", "id": msg["id"], "error": {"code": -32601, "message": "no method %s" % e}}
    sys.stdout.write(json.dumps(reply) + "\n")
    sys.stdout.flush()
