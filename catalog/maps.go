package catalog

import (
	"bytes"
	"fmt"
	"html"
	"strings"
	"sync"

	"github.com/arbiter-games/arbiter/games/territories"
	"github.com/arbiter-games/arbiter/games/territories/mapdraw"
)

// Map returns the map of a match of game with options, when its board has
// one (territories on the sample board; a board of one's own has none): an
// SVG whose territories are paths with the territories' ids, each with its
// neighbours' ids in data-neighbors and its name in data-name, and whose
// army circles are "<id>-armies" (see mapdraw).
func Map(game string, options map[string]string) ([]byte, bool) {
	if game != "territories" {
		return nil, false
	}
	if b, ok := options["board"]; ok && b != "sample" {
		return nil, false
	}
	svg, err := sampleMap()
	if err != nil {
		return nil, false
	}
	return svg, true
}

// sampleMap is the sample map, checked against the sample board, with the
// board's neighbours written on it; made once.
var sampleMap = sync.OnceValues(func() ([]byte, error) {
	cfg, svg := territories.Sample(), territories.SampleMap()
	if _, err := mapdraw.Parse(svg, cfg); err != nil {
		return nil, err
	}
	out := bytes.Clone(svg)
	for i := range cfg.Len() {
		t := cfg.Territory(i)
		var ns []string
		for _, n := range cfg.Neighbors(i) {
			ns = append(ns, cfg.Territory(n).ID)
		}
		tag := fmt.Sprintf(`<path id="%s"`, t.ID)
		if bytes.Count(out, []byte(tag)) != 1 {
			return nil, fmt.Errorf("the sample map has %d paths %q", bytes.Count(out, []byte(tag)), t.ID)
		}
		out = bytes.Replace(out, []byte(tag), fmt.Appendf(nil, `%s data-name="%s" data-neighbors="%s"`, tag, html.EscapeString(t.Name), strings.Join(ns, " ")), 1)
	}
	return out, nil
})

// sampleDrawing is the sample map, parsed for drawing boards on; made once.
var sampleDrawing = sync.OnceValues(func() (*mapdraw.Map, error) {
	return mapdraw.Parse(territories.SampleMap(), territories.Sample())
})

// BoardSVG draws a live match of game, with options, as it stands on its
// map, as arbiter territories redraws a game file's after every action:
// each held territory in its nation's colour, the armies in their circles,
// the nations listed. It is false when the match has no map drawn (another
// game, or a board of one's own).
func BoardSVG(game string, options map[string]string, live Live) ([]byte, bool) {
	if _, ok := Map(game, options); !ok {
		return nil, false
	}
	lm, ok := live.(interface{ match() any })
	if !ok {
		return nil, false
	}
	w, ok := lm.match().(interface{ World() *territories.World })
	if !ok {
		return nil, false
	}
	m, err := sampleDrawing()
	if err != nil {
		return nil, false
	}
	return m.SVG(w.World()), true
}

// BoardPNG rasterizes a board that BoardSVG drew, as a PNG.
func BoardPNG(svg []byte) ([]byte, error) {
	m, err := sampleDrawing()
	if err != nil {
		return nil, err
	}
	return m.PNGOf(svg)
}
