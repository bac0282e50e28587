package quantity

import "testing"

func TestFormats(t *testing.T) {
	for _, c := range []struct {
		got, want string
	}{
		{string(AppendMetres(nil, 1.105)), "1.10"}, // 1.105 is 1.10499… in binary, as %.2f rounds it
		{string(AppendMetres(nil, 2.5)), "2.50"},
		{string(AppendMetres(nil, -0.001)), "0.00"},
		{string(AppendMetres(nil, -0.25)), "-0.25"},
		{string(AppendPoint(nil, 11.15, 2.5)), "(11.15, 2.50)"},
		{string(AppendDegrees(nil, -0.4)), "0°"},
		{string(AppendDegrees(nil, 89.6)), "90°"},
		{string(AppendDegrees(nil, -90)), "-90°"},
	} {
		if c.got != c.want {
			t.Errorf("got %q, want %q", c.got, c.want)
		}
	}
}
