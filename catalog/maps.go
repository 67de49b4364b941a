package catalog

import (
	"context"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/arbiter-games/arbiter/games/territories"
	"github.com/arbiter-games/arbiter/games/territories/mapdraw"
	"github.com/arbiter-games/arbiter/internal/wrap"
	"github.com/arbiter-games/arbiter/store"
	tstore "github.com/arbiter-games/arbiter/store/territories"
)

// A territories board is drawn on a map: the sample board on the sample
// map; a board of one's own on the map it carries, the SVG itself as the
// value of its configuration's map (a live match's client sends the map's
// content, never a file's name: a server reads no file of its disk at a
// client's word); a game file of arbiter territories on the map its init
// read, kept in the file beside its match (its board names the map by its
// path on the disk of whoever made it). A board with no map (map left out,
// or none) is not drawn.

// Drawing is the map a match's board is drawn on, checked against the
// board (as arbiter territories init checks a map). It is read-only and
// safe for concurrent use.
type Drawing struct {
	m   *mapdraw.Map
	svg []byte // the map, its territories annotated (Annotated)
}

// NoMapError says why a match's board has no map to draw, and what to do.
type NoMapError struct{ Msg string }

func (e *NoMapError) Error() string { return e.Msg }

// Map returns the map of a match of game with options, when its board has
// one (territories on the sample board, or on a board of one's own that
// carries its map's SVG): an SVG whose territories are paths with the
// territories' ids, each with its neighbours' ids in data-neighbors and its
// name in data-name, and whose army circles are "<id>-armies" (see
// mapdraw).
func Map(game string, options map[string]string) ([]byte, bool) {
	d, err := MapOf(context.Background(), nil, "", game, options)
	if err != nil {
		return nil, false
	}
	return d.SVG(), true
}

// MapOf returns the map a match of game with options is drawn on, from
// what the match stores: the sample map, the map its board carries, or,
// for a board that names its map as a file (a game file's), the map kept
// beside match id in st (none is looked for when st is nil). A board with
// no map to draw is a *NoMapError that says why and what to do.
func MapOf(ctx context.Context, st *store.Store, id, game string, options map[string]string) (*Drawing, error) {
	if game != "territories" {
		return nil, &NoMapError{fmt.Sprintf("a %s board is not drawn on a map (only territories boards are); the board is in the match's view", game)}
	}
	b, ok := options["board"]
	if !ok || b == "sample" {
		return sampleDrawing()
	}
	cfg, err := territories.ParseConfig([]byte(b))
	if err != nil {
		return nil, &NoMapError{fmt.Sprintf("this match's board does not read (%v), so its map is not drawn", err)}
	}
	var svg []byte
	switch {
	case cfg.Map == "":
		return nil, &NoMapError{"this match's board came as a configuration of its own with no map (its map left out, or none), so there is none to draw; create the match with the map's SVG itself as the value of the board's map to have it drawn; the board is in the match's view (its territories in map)"}
	case IsMapSVG(cfg.Map):
		svg = []byte(cfg.Map)
	case st != nil:
		if svg, err = tstore.StoredMap(ctx, st, id); err != nil {
			return nil, err
		}
	}
	if svg == nil {
		return nil, &NoMapError{fmt.Sprintf("this match's board names its map as a file, %q, which the server does not read; create the match with the map's SVG itself as the value of the board's map to have it drawn; the board is in the match's view (its territories in map)", clipText(cfg.Map))}
	}
	// A map that did not come through a creation's check (a record sent
	// to be replayed, a game file) is held to it here: what is drawn is
	// shown by pages and chats.
	if err := inert(string(svg)); err != nil {
		return nil, &NoMapError{fmt.Sprintf("this match's map is not drawn: %v; a map is shapes and text", err)}
	}
	return newDrawing(svg, cfg)
}

// newDrawing parses svg, the map of cfg.
func newDrawing(svg []byte, cfg *territories.Config) (*Drawing, error) {
	m, err := mapdraw.Parse(svg, cfg)
	if err != nil {
		return nil, &NoMapError{fmt.Sprintf("the map kept with this match does not fit its board (%v), so it is not drawn", err)}
	}
	return &Drawing{m: m, svg: m.Annotated(cfg)}, nil
}

// IsMapSVG reports whether a configuration's map is an SVG's text (it
// begins with <, as "<svg ...", "<?xml ..." or a comment do) rather than
// the name of a file.
func IsMapSVG(m string) bool { return strings.HasPrefix(strings.TrimSpace(m), "<") }

// MaxMapBytes bounds a map that a server reads from its maps directory
// (ReadBoardMap): as large as a whole board may be.
const MaxMapBytes = 1 << 20

// ReadBoardMap returns options with the map of a territories board that
// names its map as a file read from maps, the directory of maps the
// server's operator gave (arbiter serve --maps DIR), its SVG put in the
// board in the file's name's place: the match carries its map from then
// on, and no file is read again, at a restart or by another server. A
// board that carries its map, has none, or is no territories board is
// returned as it is; so is every board when maps is nil (the server reads
// no file; checkBoardMap says what to do).
//
// What a client may have read is bounded: the name is a path inside maps
// (no absolute path, no "..", and no link that leads out of it: maps is
// an os.Root), of a regular file whose name ends in .svg, of at most
// MaxMapBytes; what is read is checked as a map sent in the board is.
func ReadBoardMap(game string, options map[string]string, maps *os.Root) (map[string]string, error) {
	b, ok := options["board"]
	if maps == nil || game != "territories" || !ok || b == "sample" {
		return options, nil
	}
	cfg, err := territories.ParseConfig([]byte(b))
	if err != nil || cfg.Map == "" || IsMapSVG(cfg.Map) {
		return options, nil // the rules refuse a board that does not read
	}
	name := cfg.Map
	svg, err := readMapFile(maps, name)
	if err != nil {
		return nil, Invalidf("option board: map %q: %v; %s", clipText(name), err, mapsOffered(maps))
	}
	cfg.Map = string(svg)
	board := cfg.JSON()
	if _, err := territories.ParseConfig(board); err != nil {
		return nil, Invalidf("option board: with its map %q: %v", clipText(name), err)
	}
	out := make(map[string]string, len(options))
	for k, v := range options {
		out[k] = v
	}
	out["board"] = string(board)
	return out, nil
}

// readMapFile reads the map called name in maps, within ReadBoardMap's
// bounds.
func readMapFile(maps *os.Root, name string) ([]byte, error) {
	rel := filepath.FromSlash(name)
	switch {
	case !strings.EqualFold(filepath.Ext(rel), ".svg"):
		return nil, errors.New("a map of the server's is an .svg file")
	case !filepath.IsLocal(rel):
		return nil, errors.New("a map is named by its path in the server's maps directory, with no .. and not from /")
	}
	fi, err := maps.Stat(rel)
	if err != nil || !fi.Mode().IsRegular() {
		return nil, errors.New("the server has no such map")
	}
	f, err := openRegular(maps, rel)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	svg, err := io.ReadAll(io.LimitReader(f, MaxMapBytes+1))
	switch {
	case err != nil:
		return nil, errors.New("the map could not be read")
	case len(svg) > MaxMapBytes:
		return nil, fmt.Errorf("the map is larger than %d KiB", MaxMapBytes>>10)
	case !IsMapSVG(string(svg)):
		return nil, errors.New("the file is no SVG")
	}
	return svg, nil
}

// openRegular opens the regular file rel of maps, without waiting on it:
// a file that is something else when it is opened (a FIFO, which a plain
// open would wait on for a writer, swapped in after a check of its name)
// is refused.
func openRegular(maps *os.Root, rel string) (*os.File, error) {
	f, err := maps.OpenFile(rel, os.O_RDONLY|openNonblock, 0)
	if err != nil {
		return nil, errors.New("the server has no such map")
	}
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
		f.Close()
		return nil, errors.New("the server has no such map")
	}
	return f, nil
}

// mapsOffered names the maps a board may name, for a message: the .svg
// files in maps and its folders that readMapFile would read (a link
// counts where it leads inside maps), by their paths in maps, those at the
// top first. It looks at no more than maxMapsLooked entries and names no
// more than 20.
func mapsOffered(maps *os.Root) string {
	var names []string
	looked := 0
	err := fs.WalkDir(maps.FS(), ".", func(path string, d fs.DirEntry, err error) error {
		if looked++; looked > maxMapsLooked {
			return fs.SkipAll
		}
		if err != nil || d.IsDir() || !strings.EqualFold(filepath.Ext(path), ".svg") {
			return nil // a folder that cannot be read offers nothing
		}
		if fi, err := maps.Stat(filepath.FromSlash(path)); err == nil && fi.Mode().IsRegular() {
			names = append(names, path)
		}
		return nil
	})
	switch {
	case err != nil:
		return "the server's maps cannot be listed"
	case len(names) == 0:
		return "the server offers no maps"
	}
	// Those at the top first, then those a folder down, and so on.
	slices.SortStableFunc(names, func(a, b string) int { return strings.Count(a, "/") - strings.Count(b, "/") })
	if len(names) > 20 {
		names = append(names[:20], "...")
	}
	return "the server's maps are " + strings.Join(names, ", ")
}

// maxMapsLooked bounds the entries of the maps directory and its folders
// that a refusal looks through to name the maps offered.
const maxMapsLooked = 1000

// checkBoardMap refuses, at a live match's creation, a territories board
// whose map the server would not draw: one named as a file (the server
// reads no file of its own at a client's word: the client sends the
// map's content), or an SVG that does not fit the board, checked as
// arbiter territories init checks a map. A board that does not parse is
// left to the rules, which refuse it in their words; the board's size,
// its map's included, is capped by the configuration's (1 MiB).
func checkBoardMap(game string, options map[string]string) error {
	b, ok := options["board"]
	if game != "territories" || !ok || b == "sample" {
		return nil
	}
	cfg, err := territories.ParseConfig([]byte(b))
	if err != nil || cfg.Map == "" {
		return nil
	}
	if !IsMapSVG(cfg.Map) {
		return Invalidf("option board: map %q: a match's board carries its map itself, the SVG's text as map's value (\"<svg ...>...</svg>\"); the server reads no file of its own, but for the maps its operator offers (arbiter serve --maps DIR), and this one offers none; or leave map out (or \"none\") for a board with no map drawn", clipText(cfg.Map))
	}
	if _, err := mapdraw.Parse([]byte(cfg.Map), cfg); err != nil {
		return Invalidf("option board: %v", err)
	}
	if err := inert(cfg.Map); err != nil {
		return Invalidf("option board: map: %v; a map is shapes and text, which every page and chat shows as they are", err)
	}
	return nil
}

// inert refuses what a map sent by a client could run or fetch where it
// is shown (the server's pages, a browser that opens the SVG, a chat that
// posts it): a script, an element that embeds another document or
// directs the page (<meta>, <link>, <base>, <form>), an event handler
// (onload, onclick), a reference to anything but the map's own elements
// (href="#id", url(#id)), an animation that sets a reference or a
// handler, a document type (whose entities a reader expands), and a style
// sheet that imports another.
func inert(svg string) error {
	d := xml.NewDecoder(strings.NewReader(svg))
	d.Strict = true
	inStyle := 0
	for {
		tok, err := d.RawToken()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return nil // mapdraw.Parse has said what does not parse
		}
		switch t := tok.(type) {
		case xml.StartElement:
			switch strings.ToLower(t.Name.Local) {
			case "script", "foreignobject", "iframe", "frame", "frameset", "object", "embed", "audio", "video", "handler", "listener", "meta", "link", "base", "form":
				return fmt.Errorf("<%s> is not allowed", t.Name.Local)
			case "style":
				inStyle++
			}
			for _, a := range t.Attr {
				name := strings.ToLower(a.Name.Local)
				switch {
				case strings.HasPrefix(name, "on"):
					return fmt.Errorf("<%s %s=...>: an event handler is not allowed", t.Name.Local, a.Name.Local)
				case name == "href" || name == "src":
					if !strings.HasPrefix(strings.TrimSpace(a.Value), "#") {
						return fmt.Errorf("<%s %s=%q>: a reference to anything but one of the map's own elements (#id) is not allowed", t.Name.Local, a.Name.Local, clipText(a.Value))
					}
				case name == "attributename":
					// An animation (<set>, <animate>) gives the attribute
					// it names the values it lists, which are not read
					// as that attribute's own value is: a link or a
					// handler set so would run or fetch.
					_, target, _ := strings.Cut(strings.ToLower(strings.TrimSpace(a.Value)), ":")
					if target == "" {
						target = strings.ToLower(strings.TrimSpace(a.Value))
					}
					if target == "href" || target == "src" || strings.HasPrefix(target, "on") {
						return fmt.Errorf("<%s %s=%q>: an animation of a reference or an event handler is not allowed", t.Name.Local, a.Name.Local, clipText(a.Value))
					}
				}
				// A presentation attribute (fill="url(#g)") is read as
				// CSS, escapes included; a data- or aria- attribute, or
				// one of another namespace (an editor's, such as a
				// file's path), is not.
				css := name == "style" || a.Name.Space == "" && !strings.HasPrefix(name, "data-") && !strings.HasPrefix(name, "aria-")
				if err := inertStyle(a.Value, css); err != nil {
					return fmt.Errorf("<%s %s=...>: %v", t.Name.Local, a.Name.Local, err)
				}
			}
		case xml.EndElement:
			if strings.EqualFold(t.Name.Local, "style") && inStyle > 0 {
				inStyle--
			}
		case xml.CharData:
			if inStyle > 0 {
				if err := inertStyle(string(t), true); err != nil {
					return fmt.Errorf("<style>: %v", err)
				}
			}
		case xml.Directive:
			return errors.New("a document type or declaration (<!...>) is not allowed")
		case xml.ProcInst:
			if t.Target != "xml" {
				return fmt.Errorf("<?%s ...?> is not allowed", t.Target)
			}
		}
	}
}

// inertStyle refuses CSS that fetches: url() of anything but one of the
// map's own elements, image-set() and @import; and, where sheet says css
// is read as CSS (a style, or an attribute that a browser reads as a
// property's value), escapes, which could spell them otherwise.
func inertStyle(css string, sheet bool) error {
	lower := strings.ToLower(css)
	switch {
	case strings.Contains(lower, "@import"):
		return errors.New("@import is not allowed")
	case strings.Contains(lower, "image-set("):
		return errors.New("image-set() is not allowed")
	case sheet && strings.Contains(lower, "\\"):
		return errors.New("a backslash (an escape) in a style is not allowed")
	}
	for rest := lower; ; {
		i := strings.Index(rest, "url(")
		if i < 0 {
			return nil
		}
		rest = strings.TrimLeft(rest[i+4:], " \t\n\r'\"")
		if !strings.HasPrefix(rest, "#") {
			return errors.New("url() of anything but one of the map's own elements (url(#id)) is not allowed")
		}
	}
}

// clipText shortens a text quoted in a message.
func clipText(s string) string {
	if short := wrap.FirstRunes(s, 64); short != s {
		return short + "…"
	}
	return s
}

// sampleDrawing is the sample map, checked against the sample board, its
// territories annotated; made once.
var sampleDrawing = sync.OnceValues(func() (*Drawing, error) {
	return newDrawing(territories.SampleMap(), territories.Sample())
})

// SVG returns the map itself, each territory's path with its name in
// data-name and its neighbours' ids in data-neighbors.
func (d *Drawing) SVG() []byte { return d.svg }

// Board draws a live match as it stands on the map, as arbiter
// territories redraws a game file's after every action: each held
// territory in its nation's colour, the armies in their circles, the
// nations listed. It is false when the live match is not one of
// territories.
func (d *Drawing) Board(live Live) ([]byte, bool) {
	lm, ok := live.(interface{ match() any })
	if !ok {
		return nil, false
	}
	w, ok := lm.match().(interface{ World() *territories.World })
	if !ok {
		return nil, false
	}
	return d.m.SVG(w.World()), true
}

// PNG rasterizes a board that Board drew, as a PNG.
func (d *Drawing) PNG(svg []byte) ([]byte, error) { return d.m.PNGOf(svg) }
