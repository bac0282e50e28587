package rosbridge

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/thea-harness/thea/runlog"
	"github.com/thea-harness/thea/toolsets/rosbridge/wire"
)

// callService calls a service with the request built from args; the
// response is the envelope's value, its success and reason read by the
// declared exprs.
func (c *conn) callService(ctx context.Context, tp *toolPlan, args map[string]any) (runlog.Envelope, error) {
	s := tp.decl.Service
	req, err := run(tp.build, "args", args)
	if err != nil {
		return runlog.Failure(fmt.Sprintf("%s: building the request failed: %v", tp.name, err)), nil
	}
	raw, err := c.cl.CallService(ctx, s.Name, req)
	if err != nil {
		var se *wire.ServiceError
		if errors.As(err, &se) {
			return runlog.Failure(fmt.Sprintf("%s: %v", tp.name, se)), nil
		}
		if ctx.Err() != nil {
			return runlog.Envelope{}, ctx.Err()
		}
		return runlog.Envelope{}, transportErr(err)
	}
	var resp map[string]any
	if err := json.Unmarshal(raw, &resp); err != nil {
		return runlog.Failure(fmt.Sprintf("%s: the response of %s is not a JSON object: %v", tp.name, s.Name, err)), nil
	}
	if resp == nil {
		resp = map[string]any{}
	}
	env := runlog.Envelope{Success: true, Value: map[string]any{"response": resp}}
	return tp.judge(env, map[string]any{"response": resp}, "response", "the service answered failure"), nil
}
