package territories

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"golang.org/x/image/colornames"
)

// Color is a nation's colour on the map: six lowercase hex digits and a
// leading '#', like "#ff0000". Any alpha a player gives is dropped, so that
// the map stays readable.
type Color string

// colorForms says which colours ParseColor reads, for error messages.
const colorForms = `a CSS colour: a name (red, rebeccapurple), #rgb, #rrggbb (alpha forms #rgba and #rrggbbaa too), rgb(255, 0, 0), rgba(...), hsl(120, 100%, 50%) or hsla(...)`

// ParseColor reads any CSS colour of the forms named by colorForms and
// returns it as six lowercase hex digits. Alpha is read and dropped.
func ParseColor(s string) (Color, error) {
	t := strings.ToLower(strings.TrimSpace(s))
	if t == "" {
		return "", fmt.Errorf("empty colour; want %s", colorForms)
	}
	switch {
	case t[0] == '#':
		return parseHex(s, t[1:])
	case strings.HasPrefix(t, "rgb"):
		return parseFunc(s, t, "rgb")
	case strings.HasPrefix(t, "hsl"):
		return parseFunc(s, t, "hsl")
	}
	if t == "rebeccapurple" {
		return "#663399", nil
	}
	if t == "transparent" {
		return "#000000", nil
	}
	if c, ok := colornames.Map[t]; ok {
		return hexColor(int(c.R), int(c.G), int(c.B)), nil
	}
	return "", fmt.Errorf("%q is not a colour; want %s", s, colorForms)
}

func hexColor(r, g, b int) Color {
	return Color(fmt.Sprintf("#%02x%02x%02x", r, g, b))
}

func parseHex(orig, h string) (Color, error) {
	for _, c := range h {
		if !strings.ContainsRune("0123456789abcdef", c) {
			return "", fmt.Errorf("%q: %q is not a hex digit; want #rgb, #rgba, #rrggbb or #rrggbbaa", orig, c)
		}
	}
	switch len(h) {
	case 3, 4:
		return Color("#" + string([]byte{h[0], h[0], h[1], h[1], h[2], h[2]})), nil
	case 6, 8:
		return Color("#" + h[:6]), nil
	}
	return "", fmt.Errorf("%q: %d hex digits; want #rgb, #rgba, #rrggbb or #rrggbbaa", orig, len(h))
}

// parseFunc reads rgb(), rgba(), hsl() and hsla(), in the comma form
// "rgb(255, 0, 0, 0.5)" and the space form "rgb(255 0 0 / 50%)".
func parseFunc(orig, t, kind string) (Color, error) {
	name, rest, ok := strings.Cut(t, "(")
	if !ok || (name != kind && name != kind+"a") || !strings.HasSuffix(rest, ")") {
		return "", fmt.Errorf("%q is not a colour; want %s", orig, colorForms)
	}
	body := strings.TrimSpace(strings.TrimSuffix(rest, ")"))
	var args []string
	if strings.Contains(body, ",") {
		for _, a := range strings.Split(body, ",") {
			args = append(args, strings.TrimSpace(a))
		}
	} else {
		main, alpha, hasAlpha := strings.Cut(body, "/")
		args = strings.Fields(main)
		if hasAlpha {
			args = append(args, strings.TrimSpace(alpha))
		}
	}
	if len(args) != 3 && len(args) != 4 {
		return "", fmt.Errorf("%q: %s() takes three values and an optional alpha, like %s", orig, kind, map[string]string{"rgb": "rgb(255, 0, 0)", "hsl": "hsl(120, 100%, 50%)"}[kind])
	}
	if len(args) == 4 {
		if _, err := cssNumber(args[3], 1); err != nil {
			return "", fmt.Errorf("%q: alpha %q: %v", orig, args[3], err)
		}
	}
	if kind == "rgb" {
		var v [3]int
		for i := range 3 {
			x, err := cssNumber(args[i], 255)
			if err != nil {
				return "", fmt.Errorf("%q: %q: %v", orig, args[i], err)
			}
			v[i] = int(math.Round(clamp(x, 0, 255)))
		}
		return hexColor(v[0], v[1], v[2]), nil
	}
	h, err := hue(args[0])
	if err != nil {
		return "", fmt.Errorf("%q: hue %q: %v", orig, args[0], err)
	}
	var sl [2]float64
	for i := range 2 {
		a := args[i+1]
		x, err := cssNumber(a, 100)
		if err != nil {
			return "", fmt.Errorf("%q: %q: %v", orig, a, err)
		}
		sl[i] = clamp(x, 0, 100) / 100
	}
	r, g, b := hslToRGB(h, sl[0], sl[1])
	return hexColor(r, g, b), nil
}

// cssNumber reads a number or a percentage of full.
func cssNumber(s string, full float64) (float64, error) {
	pct := strings.HasSuffix(s, "%")
	x, err := strconv.ParseFloat(strings.TrimSuffix(s, "%"), 64)
	if err != nil || math.IsNaN(x) || math.IsInf(x, 0) {
		return 0, fmt.Errorf("want a number or a percentage")
	}
	if pct {
		x = x * full / 100
	}
	return x, nil
}

// hue reads an angle in degrees (plain or deg), turn, rad or grad.
func hue(s string) (float64, error) {
	unit := 1.0
	for _, u := range []struct {
		suffix string
		deg    float64
	}{{"deg", 1}, {"grad", 0.9}, {"rad", 180 / math.Pi}, {"turn", 360}} {
		if strings.HasSuffix(s, u.suffix) {
			s, unit = strings.TrimSuffix(s, u.suffix), u.deg
			break
		}
	}
	x, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsNaN(x) || math.IsInf(x, 0) {
		return 0, fmt.Errorf("want an angle such as 120, 120deg or 0.5turn")
	}
	x = math.Mod(x*unit, 360)
	if x < 0 {
		x += 360
	}
	return x, nil
}

func clamp(x, lo, hi float64) float64 { return math.Max(lo, math.Min(hi, x)) }

// hslToRGB converts by CSS Color 4's algorithm: h in degrees, s and l in
// [0, 1].
func hslToRGB(h, s, l float64) (r, g, b int) {
	f := func(n float64) int {
		k := math.Mod(n+h/30, 12)
		a := s * math.Min(l, 1-l)
		v := l - a*math.Max(-1, math.Min(math.Min(k-3, 9-k), 1))
		return int(math.Round(clamp(v*255, 0, 255)))
	}
	return f(0), f(8), f(4)
}

// RGB returns the colour's red, green and blue.
func (c Color) RGB() (r, g, b uint8) {
	v, _ := strconv.ParseUint(strings.TrimPrefix(string(c), "#"), 16, 32)
	return uint8(v >> 16), uint8(v >> 8), uint8(v)
}

// palette is the colours dealt to nations as they join, before any are
// chosen at random: distinct and readable on a map.
var palette = []Color{
	"#e6194b", "#3cb44b", "#4363d8", "#f58231", "#911eb4", "#42d4f4",
	"#f032e6", "#bfef45", "#469990", "#9a6324", "#800000", "#000075",
}
