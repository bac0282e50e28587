package rosbridgetest

import (
	"encoding/base64"
	"fmt"
	"slices"
)

// A proxy in front of rosapi that echoes the bearer token (Options.Token)
// in what rosapi answers (Faults.EchoTokenRosapi, EchoTokenTopics): the
// case a drafted spec, meant to be committed, must not carry it out of.

// Names the echoing proxy adds to the graph.
const (
	echoService     = "/proxy/session"
	echoServiceType = "proxy_msgs/srv/Session"
)

// echoToken rewrites rosapi's answer to name (values, or err) as the
// echoing proxy does; any other service's answer is returned as it is.
// Called with Server.mu held.
func (s *Server) echoToken(name string, args map[string]any, values any, err error) (any, error) {
	auth := "Bearer " + s.opts.Token
	b64 := base64.StdEncoding.EncodeToString([]byte(auth))
	name = slashed(name)
	if s.faults.EchoTokenTopics && name == "/rosapi/topics" {
		return nil, fmt.Errorf("proxy: rosapi/topics refused for Authorization: %s (%s)", auth, b64)
	}
	if !s.faults.EchoTokenRosapi || err != nil {
		return values, err
	}
	m, _ := values.(map[string]any)
	switch name {
	case "/rosapi/topics":
		names, _ := m["topics"].([]string)
		types, _ := m["types"].([]string)
		// A topic named after the token (a Bool: a safety reading
		// candidate), and one whose type holds it.
		names = append(slices.Clone(names), "/proxy_"+s.opts.Token, "/proxy/echo")
		types = append(slices.Clone(types), TypeBool, "proxy_msgs/msg/"+s.opts.Token)
		return map[string]any{"topics": names, "types": types}, nil
	case "/rosapi/services":
		names, _ := m["services"].([]string)
		return map[string]any{"services": append(slices.Clone(names), echoService, "/proxy_"+s.opts.Token+"/reset")}, nil
	case "/rosapi/service_type":
		if svc, _ := args["service"].(string); slashed(svc) == echoService {
			return map[string]any{"type": echoServiceType}, nil
		}
	case "/rosapi/service_request_details":
		if typ, _ := args["type"].(string); typ != echoServiceType {
			return values, nil
		}
		return nil, fmt.Errorf("proxy: the session of Authorization: %s (%s) may not read definitions", auth, b64)
	}
	return values, nil
}
