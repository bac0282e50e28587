package rosbridge_test

import (
	"strings"
	"testing"
)

// withState is the TurtleBot section with one state key read from the
// battery topic by value.
func withState(t testing.TB, key, value string) map[string]any {
	t.Helper()
	rb := section(t, turtlebot)
	obs := rb["observation"].(map[string]any)
	obs["state"] = map[string]any{key: map[string]any{"topic": "/battery_state", "type": "sensor_msgs/msg/BatteryState", "value": value}}
	return rb
}

// A state value that cannot be encoded is refused at its key when its
// type says so, and otherwise fails the observation with a reason naming
// the key; a map built by fromPairs with string keys is a map like any
// other.
func TestStateValueEncodable(t *testing.T) {
	for value, want := range map[string]string{
		"fromPairs([[1, msg.percentage]])":       "observation.state.v.value: expr",
		"sin":                                    "observation.state.v.value: expr",
		"fromPairs([[msg.percentage > 0, 'x']])": "observation.state.v.value: expr",
	} {
		err := loadErr(t, withState(t, "v", value))
		if !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "cannot be encoded") {
			t.Errorf("%s: %v, want a refusal at %s", value, err, want)
		}
	}

	f := fake(t)
	r := startSection(t, f.URL, withState(t, "battery", "fromPairs([['level', msg.percentage], ['location', msg.location]])"))
	env := r.call(t, "observe", `{}`)
	wantSuccess(t, env)
	st, _ := env.Value["state"].(map[string]any)
	if b, ok := st["battery"].(map[string]any); !ok || b["level"] == nil {
		t.Errorf("state.battery = %#v, want a map of level and location", st["battery"])
	}

	for value, want := range map[string]string{
		"fromPairs([[msg.power_supply_status, 'x']])": "state.v from /battery_state: the value has a map key 2 (float64), not a string",
		"{f: sin}":                              "state.v from /battery_state: the value at f is a func(float64) float64",
		"msg.percentage - msg.percentage + 1/0": "state.v from /battery_state: the value is +Inf",
	} {
		r := startSection(t, f.URL, withState(t, "v", value))
		wantFailure(t, r.call(t, "observe", `{}`), want)
	}
}
