package rosbridge

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/thea-harness/thea/engine"
	"github.com/thea-harness/thea/toolsets/rosbridge/wire"
)

// callService calls a service with the request built from args; the
// response is the envelope's value, its success and reason read by the
// declared exprs.
func (c *conn) callService(ctx context.Context, tp *toolPlan, args map[string]any) (engine.Envelope, error) {
	s := tp.decl.Service
	req, err := run(tp.build, "args", args)
	if err != nil {
		return engine.Failure(fmt.Sprintf("%s: building the request failed: %v", tp.name, err)), nil
	}
	raw, err := c.cl.CallService(ctx, s.Name, req)
	if err != nil {
		var se *wire.ServiceError
		if errors.As(err, &se) {
			return engine.Failure(fmt.Sprintf("%s: %v", tp.name, se)), nil
		}
		if ctx.Err() != nil {
			return engine.Envelope{}, ctx.Err()
		}
		return engine.Envelope{}, transportErr(err)
	}
	var resp map[string]any
	if err := json.Unmarshal(raw, &resp); err != nil {
		return engine.Failure(fmt.Sprintf("%s: the response of %s is not a JSON object: %v", tp.name, s.Name, err)), nil
	}
	if resp == nil {
		resp = map[string]any{}
	}
	env := engine.Envelope{Success: true, Value: map[string]any{"response": resp}}
	if tp.success == nil {
		return env, nil
	}
	ok, err := run(tp.success, "response", resp)
	if err != nil {
		return engine.Failure(fmt.Sprintf("%s: reading success from the response failed: %v", tp.name, err)), nil
	}
	if ok == true {
		return env, nil
	}
	why := "the service answered failure"
	if tp.reason != nil {
		if r, err := run(tp.reason, "response", resp); err == nil && r != nil && fmt.Sprint(r) != "" {
			why = fmt.Sprint(r)
		}
	}
	env.Success, env.Reason = false, fmt.Sprintf("%s: %s", tp.name, why)
	return env, nil
}
