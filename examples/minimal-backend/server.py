#!/usr/bin/env python3
"""A complete, minimal Thea back-end: a camera cart on a 2 m rail.

Standard library only. It speaks MCP over stdio (newline-delimited JSON-RPC
2.0) and returns what the back-end contract says (`thea schema --format
jsonschema --def observation|clearance|verdict|envelope`):

  * every tool result's text is a JSON object, the envelope: {"success": ...}
    and, on failure, "reason" (isError is set too);
  * the observation tool returns an Observation; its camera image travels as
    MCP image content whose _meta.camera names a camera of the embodiment;
  * a physical call returns a run_id; the evidence tool (observe) takes it and
    answers with the Observation of that run;
  * the clearance tool returns a distance per declared sector (ahead, behind);
  * a verify tool returns {"success": true, "verdict": {status, reason}}.
"""
import base64
import json
import struct
import sys
import zlib

RAIL_M = 2.0
state = {"position_m": 0.5, "runs": 0, "last_run": ""}


def png(width, height, rgb):
    """A solid-colour PNG, built with zlib: no imaging library needed."""
    row = b"\x00" + bytes(rgb) * width
    raw = zlib.compress(row * height)

    def chunk(kind, data):
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", raw) + chunk(b"IEND", b"")


def clearance():
    return {"ahead": round(RAIL_M - state["position_m"], 3), "behind": round(state["position_m"], 3)}


def observe(args):
    obs = {
        "clearance": clearance(),
        "state": {"position_m": state["position_m"]},
        "summary": "The cart is %.2f m along the %.1f m rail." % (state["position_m"], RAIL_M),
        "images": [{"camera": "cart", "mime": "image/png", "width": 8, "height": 8}],
    }
    if args.get("run_id"):
        obs["run_id"] = args["run_id"]
    image = {"type": "image", "mimeType": "image/png", "data": base64.b64encode(png(8, 8, (40, 90, 160))).decode(),
             "_meta": {"camera": "cart"}}
    return dict(success=True, **obs), [image]


def move(args):
    d = args["distance_m"]
    target = state["position_m"] + d
    if target < 0 or target > RAIL_M:
        return {"success": False, "reason": "the rail ends %.2f m %s; move at most that far" % (
            clearance()["ahead" if d > 0 else "behind"], "ahead" if d > 0 else "behind")}, []
    state["position_m"] = round(target, 3)
    state["runs"] += 1
    state["last_run"] = "run-%d" % state["runs"]
    return {"success": True, "run_id": state["last_run"], "position_m": state["position_m"]}, []


def verify_position(args):
    # The cart's own encoder: the judge the robot trusts.
    ok = abs(state["position_m"] - args["target_m"]) < 0.005
    verdict = {"status": "success" if ok else "failure",
               "reason": "the encoder reads %.3f m" % state["position_m"]}
    return {"success": True, "verdict": verdict}, []


TOOLS = {
    "observe": (observe, "Read the cart's position, clearance and camera.",
                {"type": "object", "properties": {"run_id": {"type": "string"}}}),
    "get_clearance": (lambda a: (dict(success=True, **clearance()), []), "Distance to each end of the rail (m).",
                      {"type": "object", "properties": {}}),
    "move": (move, "Move the cart along the rail: positive distance_m is ahead, negative behind.",
             {"type": "object", "properties": {"distance_m": {"type": "number"}}, "required": ["distance_m"]}),
    # The deployment-owned stop the spec declares: the harness calls it when a
    # motion times out or is cancelled. A move here finishes within its call.
    "stop": (lambda a: ({"success": True, "moving": False}, []), "Stop the cart at once.",
             {"type": "object", "properties": {}}),
    "verify_position": (verify_position, "Check the cart's encoder against a target position.",
                        {"type": "object", "properties": {"target_m": {"type": "number"}},
                         "required": ["target_m"]}),
}


def handle(msg):
    method, params = msg.get("method"), msg.get("params") or {}
    if method == "initialize":
        return {"protocolVersion": params.get("protocolVersion", "2025-06-18"),
                "capabilities": {"tools": {}}, "serverInfo": {"name": "rail-cart", "version": "1.0"}}
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
        content = [{"type": "text", "text": json.dumps(env)}] + images
        return {"content": content, "isError": not env["success"]}
    raise LookupError(method)


def main():
    for line in sys.stdin:
        if not line.strip():
            continue
        msg = json.loads(line)
        if "id" not in msg:
            continue  # a notification (notifications/initialized): no answer
        try:
            reply = {"jsonrpc": "2.0", "id": msg["id"], "result": handle(msg)}
        except LookupError as e:
            reply = {"jsonrpc": "2.0", "id": msg["id"], "error": {"code": -32601, "message": "no method %s" % e}}
        sys.stdout.write(json.dumps(reply) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
