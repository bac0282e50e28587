package quantity

import (
	"math"
	"strconv"
)

// Metres are written to the centimetre, as the bundled simulator's summary
// writes them (%.2f): finer is noise to a model, coarser moves a grasp.
const metreDecimals = 2

// AppendMetres appends a length or coordinate in metres: "1.10", "2.50".
func AppendMetres(b []byte, m float64) []byte {
	return strconv.AppendFloat(b, noNegativeZero(m, 0.005), 'f', metreDecimals, 64)
}

// AppendPoint appends a position as "(x, y)" in metres.
func AppendPoint(b []byte, x, y float64) []byte {
	b = append(b, '(')
	b = AppendMetres(b, x)
	b = append(b, ", "...)
	b = AppendMetres(b, y)
	return append(b, ')')
}

// AppendDegrees appends an angle to the degree: "90°".
func AppendDegrees(b []byte, deg float64) []byte {
	b = strconv.AppendFloat(b, noNegativeZero(deg, 0.5), 'f', 0, 64)
	return append(b, "°"...)
}

// noNegativeZero makes a value that rounds to zero a plain zero: "-0.00"
// would read as a direction.
func noNegativeZero(v, half float64) float64 {
	if math.Abs(v) < half {
		return 0
	}
	return v
}
