#!/usr/bin/env python3
"""A simulated tabletop arm for Thea: a fixed 6-DoF arm with a wrist camera
and a parallel gripper, in a workcell whose front is guarded by a light
curtain. Standard library only; MCP over stdio (newline-delimited JSON-RPC).

What a real stack does, this one does too: the gripper reports "closed" even
when it closed on nothing, and only the finger load cell (verify_grasp) can
tell a real grasp from an empty one.

Environment:
  ARM_INTRUSION_AFTER=N  after N motions an operator's hand breaks the curtain
                         (0.08 m from it) and stays there.
"""
import base64
import json
import math
import os
import struct
import sys
import zlib

REACH_M = 0.6
CURTAIN_CLEAR_M = 1.2

world = {
    "ee": [0.20, 0.00, 0.30],  # end effector in base_link, metres
    "opening": 0.08,
    "closed": False,
    "held": "",
    "force": 0.0,
    "motions": 0,
    "runs": 0,
    "objects": {
        "red_cube": {"pos": [0.35, 0.10, 0.02], "class": "cube", "on": "table"},
        "blue_cube": {"pos": [0.30, -0.15, 0.02], "class": "cube", "on": "table"},
    },
    "bin": [0.10, 0.40, 0.00],
}


def png(width, height, rgb):
    row = b"\x00" + bytes(rgb) * width
    raw = zlib.compress(row * height)

    def chunk(kind, data):
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", raw) + chunk(b"IEND", b"")


def curtain():
    after = os.environ.get("ARM_INTRUSION_AFTER")
    if after is not None and world["motions"] >= int(after):
        return 0.08
    return CURTAIN_CLEAR_M


def joints():
    # A plausible, not exact, joint state for the end-effector position.
    x, y, z = world["ee"]
    r = math.hypot(x, y)
    return {
        "shoulder_pan": round(math.atan2(y, x), 3),
        "shoulder_lift": round(-math.atan2(z, r), 3),
        "elbow": round(1.2 - r, 3),
        "wrist_1": -1.571,
        "wrist_2": 1.571,
        "wrist_3": 0.0,
    }


def new_run():
    world["runs"] += 1
    world["motions"] += 1
    return "arm-run-%d" % world["runs"]


def observe(args):
    ex, ey, ez = world["ee"]
    detections = []
    for name, o in sorted(world["objects"].items()):
        ox, oy, oz = o["pos"]
        det = {"name": name, "class": o["class"], "camera": "wrist", "visible": True,
               "distance_m": round(math.dist((ex, ey, ez), (ox, oy, oz)), 3),
               "position": {"x": ox, "y": oy}}  # in base_link, the scene graph's frame
        if world["held"] == name:
            det["relation"], det["target"] = "in", "gripper"
        else:
            det["relation"], det["target"] = ("in", "bin") if o["on"] == "bin" else ("on", "table")
        detections.append(det)
    obs = {
        "clearance": {"curtain": curtain()},
        "joints": joints(),
        "end_effector": {"frame": "base_link", "x": ex, "y": ey, "z": ez, "pitch_deg": 180},
        "gripper": {"opening_m": world["opening"], "closed": world["closed"], "force_n": world["force"]},
        "held": world["held"],
        "detections": detections,
        "images": [{"camera": "wrist", "mime": "image/png", "width": 16, "height": 12}],
        "summary": "Tool at (%.2f, %.2f, %.2f) m; gripper %s%s; light curtain %s." % (
            ex, ey, ez, "closed" if world["closed"] else "open",
            ", holding " + world["held"] if world["held"] else "",
            "clear" if curtain() > 0.5 else "BROKEN"),
    }
    if args.get("run_id"):
        obs["run_id"] = args["run_id"]
    colour = (200, 40, 40) if world["held"] == "red_cube" else (90, 90, 90)
    image = {"type": "image", "mimeType": "image/png", "data": base64.b64encode(png(16, 12, colour)).decode(),
             "_meta": {"camera": "wrist"}}
    return dict(success=True, **obs), [image]


def move_to(args):
    x, y, z = float(args["x"]), float(args["y"]), float(args["z"])
    if math.hypot(x, y) > REACH_M:
        return {"success": False, "reason": "(%.2f, %.2f) is %.2f m from the base, beyond the arm's %.2f m reach" % (
            x, y, math.hypot(x, y), REACH_M)}, []
    if z < 0.0:
        return {"success": False, "reason": "z %.2f is below the table" % z}, []
    world["ee"] = [round(x, 3), round(y, 3), round(z, 3)]
    if world["held"]:
        world["objects"][world["held"]]["pos"] = [world["ee"][0], world["ee"][1], world["ee"][2]]
    return {"success": True, "run_id": new_run(), "seconds": round(0.3 / float(args["speed_mps"]), 2)}, []


def grasp(args):
    name = args["object"]
    if name not in world["objects"]:
        return {"success": False, "reason": "no object %r on the table (objects: %s)" % (
            name, ", ".join(sorted(world["objects"])))}, []
    if world["closed"]:
        return {"success": False, "reason": "the gripper is already closed; release first"}, []
    run = new_run()
    world["closed"] = True
    o = world["objects"][name]
    ex, ey, ez = world["ee"]
    aligned = math.hypot(ex - o["pos"][0], ey - o["pos"][1]) < 0.01 and abs(ez - o["pos"][2]) < 0.02
    if aligned:
        world["held"], world["opening"] = name, 0.045
        world["force"] = float(args.get("force_n", 10))
    else:
        world["opening"], world["force"] = 0.0, 0.0
    # Like a real gripper driver: it reports that it closed, not what it holds.
    return {"success": True, "run_id": run, "gripper": "closed"}, []


def release(args):
    run = new_run()
    held = world["held"]
    world.update(closed=False, opening=0.08, force=0.0, held="")
    if held:
        o = world["objects"][held]
        bx, by, _ = world["bin"]
        if math.hypot(world["ee"][0] - bx, world["ee"][1] - by) < 0.08:
            o["on"], o["pos"] = "bin", [bx, by, 0.02]
        else:
            o["on"], o["pos"] = "table", [world["ee"][0], world["ee"][1], 0.02]
    return {"success": True, "run_id": run, "released": held}, []


def verify_grasp(args):
    # The finger load cell: the only honest witness of a grasp.
    name = args["object"]
    if world["held"] == name and world["force"] > 0:
        v = {"status": "success", "reason": "the fingers carry a load of %.0f N" % world["force"], "confidence": 0.98}
    elif world["closed"]:
        v = {"status": "failure", "reason": "the gripper closed on nothing: no load on the fingers", "confidence": 0.99}
    else:
        v = {"status": "failure", "reason": "the gripper is open", "confidence": 0.99}
    return {"success": True, "verdict": v}, []


def schema(props, required=()):
    return {"type": "object", "properties": props, "required": list(required)}


NUM = {"type": "number"}
TOOLS = {
    "observe": (observe, "The arm's state, the wrist camera and the light curtain.",
                schema({"run_id": {"type": "string"}})),
    "get_clearance": (lambda a: ({"success": True, "curtain": curtain()}, []),
                      "Distance (m) from the light curtain to the nearest intrusion.", schema({})),
    "move_to": (move_to, "Move the tool to (x, y, z) metres in base_link at speed_mps.",
                schema({"x": NUM, "y": NUM, "z": NUM, "speed_mps": NUM}, ["x", "y", "z", "speed_mps"])),
    "grasp": (grasp, "Close the gripper on an object at the tool's position with force_n newtons.",
              schema({"object": {"type": "string"}, "force_n": NUM}, ["object", "force_n"])),
    "release": (release, "Open the gripper.", schema({})),
    # The deployment-owned stop the spec declares: the harness calls it when a
    # motion times out or is cancelled. Motions here finish within their call.
    "stop": (lambda a: ({"success": True, "moving": False}, []),
             "Stop every motion of the arm at once (brakes on).", schema({})),
    "verify_grasp": (verify_grasp, "Whether the fingers really hold the object (load cell).",
                     schema({"object": {"type": "string"}}, ["object"])),
}


def handle(msg):
    method, params = msg.get("method"), msg.get("params") or {}
    if method == "initialize":
        return {"protocolVersion": params.get("protocolVersion", "2025-06-18"),
                "capabilities": {"tools": {}}, "serverInfo": {"name": "tabletop-arm", "version": "1.0"}}
    if method == "ping":
        return {}
    if method == "tools/list":
        return {"tools": [{"name": n, "description": d, "inputSchema": s} for n, (_, d, s) in TOOLS.items()]}
    if method == "tools/call":
        name = params.get("name")
        if name not in TOOLS:
            env, images = {"success": False, "reason": "no tool %r" % name}, []
        else:
            try:
                env, images = TOOLS[name][0](params.get("arguments") or {})
            except (KeyError, TypeError, ValueError) as e:
                env, images = {"success": False, "reason": "bad arguments: %s" % e}, []
        return {"content": [{"type": "text", "text": json.dumps(env)}] + images, "isError": not env["success"]}
    raise LookupError(method)


def main():
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


if __name__ == "__main__":
    main()
