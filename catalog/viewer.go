package catalog

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/arbiter-games/arbiter/engine"
)

// A replay viewer shows a match record step by step through someone's eyes:
// the judge's (everything), the public's, or one seat's. Go replays the
// record and computes the views, redacted for each viewpoint; the viewer
// receives views only, never a snapshot of the state or its generator.

// Viewpoint is whose eyes a replay shows a match through.
type Viewpoint struct {
	// Judge sees everything; otherwise Seat sees its own view, or the
	// public view when Seat is engine.Judge (-1).
	Judge bool
	Seat  int
}

// The viewpoints that are not a seat's.
var (
	JudgeView  = Viewpoint{Judge: true, Seat: engine.Judge}
	PublicView = Viewpoint{Seat: engine.Judge}
)

// SeatView is seat's viewpoint.
func SeatView(seat int) Viewpoint { return Viewpoint{Seat: seat} }

// IsSeat reports whether v is a seat's viewpoint.
func (v Viewpoint) IsSeat() bool { return !v.Judge && v.Seat >= 0 }

// String names the viewpoint as ParseViewpoint reads it: judge, public,
// seat:N.
func (v Viewpoint) String() string {
	switch {
	case v.Judge:
		return "judge"
	case v.Seat < 0:
		return "public"
	}
	return "seat:" + strconv.Itoa(v.Seat)
}

// ParseViewpoint reads a viewpoint: judge, public, seat:N (or N), seats
// counted from 0.
func ParseViewpoint(s string) (Viewpoint, error) {
	switch s {
	case "judge":
		return JudgeView, nil
	case "public":
		return PublicView, nil
	}
	n, err := strconv.Atoi(strings.TrimPrefix(s, "seat:"))
	if err != nil || n < 0 {
		return Viewpoint{}, Invalidf("viewpoint %q: give judge, public, or seat:N (seats counted from 0)", s)
	}
	return SeatView(n), nil
}

// ViewerOptions says what a replay viewer is given.
type ViewerOptions struct {
	// Viewpoints are the viewpoints whose steps and views are made; nil
	// makes every one: the judge, the public and each seat.
	Viewpoints []Viewpoint
	// NoFrames leaves the views out: the steps, measures and events only.
	NoFrames bool
	// Every is how many steps apart full views (keyframes) are; the steps
	// between carry the changes from the step before. 0 is 64.
	Every int
	// MaxBytes, when more than 0, bounds the views made (the JSON of the
	// frames, all viewpoints together): a viewer whose views come to more
	// is refused with a *ViewsTooLargeError once they pass it, so that
	// the work and memory of one viewer are bounded, whatever the record.
	MaxBytes int
	// Map is the SVG of the map the match's board is drawn on, where the
	// record's own options do not carry it: a game file's board names its
	// map by a path, and the map is kept beside the match (MapOf). It is
	// the viewer's map when the record gives none.
	Map string
}

// ViewsTooLargeError refuses a viewer whose views come to more than
// ViewerOptions.MaxBytes: they passed it at step Step of Moves.
type ViewsTooLargeError struct {
	Max, Step, Moves int
}

func (e *ViewsTooLargeError) Error() string {
	return fmt.Sprintf("the views come to more than %d bytes, the most made for one viewer, by step %d of %d", e.Max, e.Step, e.Moves)
}

// Viewer is a match record as the replay viewer shows it: the match's
// public story (its measures over time and its events) and, for each
// viewpoint, the steps it sees and its views at each.
type Viewer struct {
	Game    string `json:"game"`
	Mode    string `json:"mode,omitempty"`
	Title   string `json:"title"`
	Variant string `json:"variant,omitempty"`
	// Clock names the match's time: turn, cycle.
	Clock   string   `json:"clock"`
	Players []string `json:"players"`
	// Moves is the number of moves in the record.
	Moves int `json:"moves"`
	// Result is how the match ended, if it has; Aborted why it stopped.
	Result  *engine.Result `json:"result,omitempty"`
	Aborted string         `json:"aborted,omitempty"`
	// Map is the game's map (an SVG), when its board has one: the
	// viewer draws each view's holdings on it.
	Map      string         `json:"map,omitempty"`
	Measures *ViewerMeasure `json:"measures,omitempty"`
	Events   []ViewerEvent  `json:"events"`
	// Views are the viewpoints made, each with its steps and views.
	Views []ViewerView `json:"views"`
	// Offered are the viewpoints the reader may choose (a server offers
	// only those its caller may see); empty is those in Views.
	Offered []string `json:"offered,omitempty"`
}

// ViewerMeasure is a match's numbers over time (engine.Measurer), one point
// per value of its clock: the numbers at the last step of that turn.
type ViewerMeasure struct {
	Names  []engine.Measure `json:"names"`
	Points []ViewerPoint    `json:"points"`
	// Values[k] are measure k's series: one per seat when it is per seat,
	// else one; each has a value per point.
	Values [][][]float64 `json:"values"`
}

// ViewerPoint is one point of the measures' time axis.
type ViewerPoint struct {
	Seq   int `json:"seq"`
	Clock int `json:"clock"`
}

// ViewerEvent is a public event of the match (engine.Chronicler), at the
// last step of the turn it happened in.
type ViewerEvent struct {
	Seq   int    `json:"seq"`
	Clock int    `json:"clock"`
	Kind  string `json:"kind"`
	Text  string `json:"text"`
	Seats []int  `json:"seats,omitempty"`
	Mark  bool   `json:"mark,omitempty"`
}

// ViewerView is what one viewpoint sees: the steps it may see, and its view
// at each.
type ViewerView struct {
	// ID is the viewpoint as ParseViewpoint reads it; Label names it for
	// people.
	ID    string       `json:"id"`
	Label string       `json:"label"`
	Steps []ViewerStep `json:"steps"`
	// Frames are the views at each step, when made.
	Frames *Frames `json:"frames,omitempty"`
}

// ViewerStep is a step a viewpoint sees: the start (Seq 0), or the move
// that made the match's Seq-th move. A seat does not see the moves of
// others that left their round open (they change nothing it sees), nor
// what another seat's move was; the public sees no move. In a game whose
// moves are public information (engine.Teller: territories), every
// viewpoint sees every move, and what it did.
type ViewerStep struct {
	Seq   int `json:"seq"`
	Clock int `json:"clock"`
	// Seat made the move: a seat, or engine.Judge; absent at the start.
	Seat *int `json:"seat,omitempty"`
	// Move is the move, for the judge's viewpoint and the mover's own;
	// for every viewpoint when the move is public (see Told).
	Move json.RawMessage `json:"move,omitempty"`
	// Told is what a public move did, for every viewpoint (engine.Teller:
	// a territories action's outcome, an attack's roll and losses); nil
	// for a move that is not public.
	Told *Told `json:"told,omitempty"`
	// Fault says why the move was the request's default; its detail for
	// the judge and the seat at fault only.
	Fault *engine.Fault `json:"fault,omitempty"`
	// Note is the judge's word on a move of theirs (engine.Record's
	// Notes), for the judge's viewpoint only: a correction's reason may
	// tell what the others may not know.
	Note string `json:"note,omitempty"`
}

// Frames are a viewpoint's views at each of its steps: a full view every
// Every steps (Keys[i] is step i×Every's), and for every other step the
// changes from the view before (Deltas[i], empty at a keyframe). A change
// is ["s", path, value] (set), ["d", path] (delete a key), ["t", path, n]
// (cut an array to n) or ["p", path, n] (drop an array's first n); a path is
// the keys and indices from the view's root.
type Frames struct {
	Every  int               `json:"every"`
	Keys   []json.RawMessage `json:"keys"`
	Deltas []json.RawMessage `json:"deltas"`
}

// ReplayViewer replays a match record and makes what the replay viewer
// shows (see Viewer). A record that does not parse or is of a game this
// Arbiter does not host is an InputError; one whose moves the rules refuse
// is an *engine.ReplayError.
func ReplayViewer(data []byte, o ViewerOptions) (*Viewer, error) {
	hd, err := engine.ReadHeader(bytes.NewReader(data))
	if err != nil {
		return nil, Invalid(err)
	}
	g, err := Find(hd.Ruleset)
	if err != nil {
		return nil, err
	}
	vr, ok := g.(viewerRules)
	if !ok {
		return nil, Invalidf("%s records cannot be viewed", hd.Ruleset)
	}
	return vr.viewer(data, hd, o)
}

// viewerRules is a hosted game of any types that makes viewers.
type viewerRules interface {
	viewer(data []byte, hd engine.Header, o ViewerOptions) (*Viewer, error)
}

func (h *hosted[M, V]) viewer(data []byte, hd engine.Header, o ViewerOptions) (*Viewer, error) {
	mode := ""
	if hd.Variant != h.rules.Info().Variant {
		for _, m := range h.modes {
			if m.game == nil || m.game.Info().Variant != hd.Variant {
				continue
			}
			vr, ok := m.game.(viewerRules)
			if !ok {
				break
			}
			v, err := vr.viewer(data, hd, o)
			if v != nil {
				v.Game, v.Mode = h.rules.Info().Name, m.Name
			}
			return v, err
		}
		return nil, Invalidf("the record was played in the %q world of %s, which this Arbiter does not have", hd.Variant, hd.Ruleset)
	}
	for _, m := range h.modes {
		if m.game == nil {
			mode = m.Name // the mode that plays the game's own rules
			break
		}
	}
	rec, err := engine.ReadRecord[M](bytes.NewReader(data))
	if errors.Is(err, engine.ErrEdited) {
		return nil, err
	}
	if err != nil {
		return nil, Invalid(err)
	}
	v, err := h.replayViews(rec, o)
	if v != nil {
		v.Mode = mode
	}
	return v, err
}

// replayViews replays rec and makes its viewer.
func (h *hosted[M, V]) replayViews(rec *engine.Record[M], o ViewerOptions) (*Viewer, error) {
	info := h.rules.Info()
	m, err := h.rules.New(rec.Header.Setup)
	if err != nil {
		return nil, Invalid(fmt.Errorf("the record's setup: %w", err))
	}
	names := rec.Header.Setup.Players
	lm := &liveMatch[M, V]{h: h, m: m, names: names}
	v := &Viewer{Game: info.Name, Title: info.Title, Variant: info.Variant, Clock: info.Clock, Players: names,
		Moves: len(rec.Steps), Events: []ViewerEvent{}}
	if v.Players == nil {
		v.Players = []string{} // a territories referee's: players join by name
	}
	if v.Clock == "" {
		v.Clock = "turn"
	}
	if rec.End != nil {
		v.Result, v.Aborted = rec.End.Result, rec.End.Aborted
	}
	if svg, ok := Map(info.Name, rec.Header.Setup.Options); ok {
		v.Map = string(svg)
	} else {
		v.Map = o.Map
	}
	points := o.Viewpoints
	if points == nil {
		points = []Viewpoint{JudgeView, PublicView}
		for s := range names {
			points = append(points, SeatView(s))
		}
	}
	every := o.Every
	if every <= 0 {
		every = 64
	}
	made := 0 // the bytes of the views made, for o.MaxBytes
	tooLarge := func(step int) error {
		if o.MaxBytes > 0 && made > o.MaxBytes {
			return &ViewsTooLargeError{Max: o.MaxBytes, Step: step, Moves: len(rec.Steps)}
		}
		return nil
	}
	views := make([]*viewTrack, len(points))
	for i, p := range points {
		if p.IsSeat() && p.Seat >= len(names) {
			return nil, Invalidf("viewpoint %s: the match has seats 0 to %d", p, len(names)-1)
		}
		views[i] = &viewTrack{point: p, frames: !o.NoFrames, every: every, out: Frames{Every: every}, made: &made}
		views[i].view.ID, views[i].view.Label = p.String(), viewpointLabel(p, names)
	}
	clock := func() int { return 0 }
	if c, ok := m.(interface{ Clock() int }); ok {
		clock = c.Clock // a game's time, with charts (engine.Measurer) or without
	}
	if c, ok := m.(engine.Measurer); ok {
		v.Measures = &ViewerMeasure{Names: c.Measures()}
		v.Measures.Values = make([][][]float64, len(v.Measures.Names))
		for k, ms := range v.Measures.Names {
			n := 1
			if ms.PerSeat {
				n = len(names)
			}
			v.Measures.Values[k] = make([][]float64, n)
		}
	}
	judge := func() json.RawMessage { return judgeView(lm) }
	for _, t := range views {
		if err := t.add(lm, judge, 0, clock(), nil, false); err != nil {
			return nil, err
		}
	}
	if err := tooLarge(0); err != nil {
		return nil, err
	}
	v.measure(m, 0, clock())
	var steps []ViewerPoint // every step's clock, for the events
	steps = append(steps, ViewerPoint{0, clock()})
	for i := range rec.Steps {
		st := &rec.Steps[i]
		asked := slices.Clone(m.Pending())
		if err := m.Apply(st.Seat, st.Move); err != nil {
			return nil, &engine.ReplayError{Step: i, Msg: err.Error()}
		}
		clear(lm.views)
		lm.public = nil
		now := m.Pending()
		quiet := st.Seat != engine.Judge && len(now) > 0 && len(now) == len(asked)-1 && leftOpen(asked, now, st.Seat) >= 0
		var told *Told
		if t, ok := toldOf(m); ok && !quiet {
			told = &t
		}
		for _, t := range views {
			if err := t.add(lm, judge, i+1, clock(), recordStep[M]{st, rec.Notes[i], told}, quiet); err != nil {
				return nil, err
			}
		}
		if err := tooLarge(i + 1); err != nil {
			return nil, err
		}
		v.measure(m, i+1, clock())
		steps = append(steps, ViewerPoint{i + 1, clock()})
	}
	if c, ok := m.(engine.Chronicler); ok {
		for _, e := range c.Chronicle() {
			v.Events = append(v.Events, ViewerEvent{Seq: lastOf(steps, e.Clock), Clock: e.Clock, Kind: e.Kind, Text: e.Text, Seats: e.Seats, Mark: e.Mark})
		}
	}
	for _, t := range views {
		if t.frames {
			t.view.Frames = &t.out
		}
		v.Views = append(v.Views, t.view)
	}
	return v, nil
}

// lastOf returns the seq of the last step at clock, or of the last step
// before a later clock; the last step when none is later.
func lastOf(steps []ViewerPoint, clock int) int {
	seq := steps[len(steps)-1].Seq
	for i := len(steps) - 1; i >= 0; i-- {
		if steps[i].Clock <= clock {
			return steps[i].Seq
		}
		seq = steps[i].Seq
	}
	return seq
}

// measure adds the match's numbers at step seq: a point per clock value,
// the last step's numbers.
func (v *Viewer) measure(m any, seq, clock int) {
	ms, ok := m.(engine.Measurer)
	if !ok || v.Measures == nil {
		return
	}
	vm := v.Measures
	last := len(vm.Points) - 1
	if last < 0 || vm.Points[last].Clock != clock {
		vm.Points = append(vm.Points, ViewerPoint{seq, clock})
		for k := range vm.Values {
			for s := range vm.Values[k] {
				vm.Values[k][s] = append(vm.Values[k][s], 0)
			}
		}
		last++
	}
	vm.Points[last].Seq = seq
	for k, name := range vm.Names {
		for s := range vm.Values[k] {
			seat := s
			if !name.PerSeat {
				seat = engine.Judge
			}
			vm.Values[k][s][last] = ms.Measure(k, seat)
		}
	}
}

// viewpointLabel names a viewpoint for people.
func viewpointLabel(p Viewpoint, names []string) string {
	switch {
	case p.Judge:
		return "the judge (everything)"
	case p.Seat < 0:
		return "the public"
	case p.Seat < len(names):
		return fmt.Sprintf("seat %d (%s)", p.Seat+1, names[p.Seat])
	}
	return fmt.Sprintf("seat %d", p.Seat+1)
}

// viewTrack makes one viewpoint's steps and frames as the replay goes.
type viewTrack struct {
	point  Viewpoint
	frames bool
	every  int
	view   ViewerView
	out    Frames
	last   json.RawMessage // the view at the last step kept
	tree   any             // last, decoded
	made   *int            // the bytes of the frames of every track, counted
}

// add adds step seq (st, nil at the start) if the viewpoint sees it. A move
// that left its round open (quiet) is seen by the judge and its mover only.
func (t *viewTrack) add(lm viewSource, judge func() json.RawMessage, seq, clock int, st stepOf, quiet bool) error {
	p := t.point
	vs := ViewerStep{Seq: seq, Clock: clock}
	if st != nil {
		seat := st.seat()
		own := p.IsSeat() && p.Seat == seat
		if quiet && !p.Judge && !own {
			return nil
		}
		vs.Seat = &seat
		told := st.told()
		vs.Told = told
		if p.Judge || own || told != nil {
			mv, err := json.Marshal(st.move())
			if err != nil {
				return err
			}
			vs.Move = mv
		}
		if f := st.fault(); f != nil {
			vs.Fault = &engine.Fault{Kind: f.Kind}
			if p.Judge || own {
				vs.Fault.Detail = f.Detail
			}
		}
		if p.Judge {
			vs.Note = st.note()
		}
	}
	t.view.Steps = append(t.view.Steps, vs)
	if !t.frames {
		return nil
	}
	var view json.RawMessage
	switch {
	case p.Judge:
		view = judge()
	case p.Seat < 0:
		view = lm.Public()
	default:
		view = lm.View(p.Seat)
	}
	i := len(t.view.Steps) - 1
	if i%t.every == 0 {
		t.out.Keys = append(t.out.Keys, view)
		t.out.Deltas = append(t.out.Deltas, json.RawMessage("[]"))
		*t.made += len(view)
		tree, err := decodeTree(view)
		if err != nil {
			return err
		}
		t.last, t.tree = view, tree
		return nil
	}
	if bytes.Equal(view, t.last) {
		t.out.Deltas = append(t.out.Deltas, json.RawMessage("[]"))
		return nil
	}
	tree, err := decodeTree(view)
	if err != nil {
		return err
	}
	var d delta
	d.diff(nil, t.tree, tree)
	b, err := json.Marshal(d.ops)
	if err != nil {
		return err
	}
	t.out.Deltas = append(t.out.Deltas, b)
	*t.made += len(b)
	t.last, t.tree = view, tree
	return nil
}

// viewSource gives the views of a match as it stands.
type viewSource interface {
	View(seat int) json.RawMessage
	Public() json.RawMessage
}

// judgeView is the judge's view: in a game of seats, the public view and
// every seat's, made of the seats' views already made for their own
// viewpoints (what liveMatch.View(engine.Judge) makes again).
func judgeView[M, V any](lm *liveMatch[M, V]) json.RawMessage {
	if lm.h.judged {
		return lm.View(engine.Judge)
	}
	b := append(append([]byte(`{"public":`), lm.Public()...), `,"seats":[`...)
	for s := range lm.names {
		if s > 0 {
			b = append(b, ',')
		}
		b = append(b, lm.View(s)...)
	}
	b = append(b, ']')
	if o, ok := any(lm.m).(engine.Overseer); ok {
		b = append(append(b, `,"overseen":`...), mustJSON(o.Overseen())...)
	}
	return append(b, '}')
}

// stepOf is a record's step of any move type.
type stepOf interface {
	seat() int
	move() any
	fault() *engine.Fault
	note() string
	// told is what the move did when it is public (engine.Teller), else
	// nil.
	told() *Told
}

// recordStep is a record's step as a stepOf, with its note and, for a
// public move, what it did.
type recordStep[M any] struct {
	*engine.Step[M]
	said   string
	public *Told
}

func (s recordStep[M]) seat() int            { return s.Seat }
func (s recordStep[M]) move() any            { return s.Move }
func (s recordStep[M]) fault() *engine.Fault { return s.Fault }
func (s recordStep[M]) note() string         { return s.said }
func (s recordStep[M]) told() *Told          { return s.public }

// decodeTree decodes a view's JSON, its numbers as they are written.
func decodeTree(b []byte) (any, error) {
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		return nil, fmt.Errorf("a view is not JSON: %w", err)
	}
	return v, nil
}

// delta is the changes that make one view of another.
type delta struct{ ops [][]any }

// diff adds the changes that make a into b, at path.
func (d *delta) diff(path []any, a, b any) {
	switch bv := b.(type) {
	case map[string]any:
		av, ok := a.(map[string]any)
		if !ok {
			d.set(path, b)
			return
		}
		keys := make([]string, 0, len(bv))
		for k := range bv {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			if old, ok := av[k]; ok {
				d.diff(append(path, k), old, bv[k])
			} else {
				d.set(append(path, k), bv[k])
			}
		}
		gone := []string{}
		for k := range av {
			if _, ok := bv[k]; !ok {
				gone = append(gone, k)
			}
		}
		slices.Sort(gone)
		for _, k := range gone {
			d.ops = append(d.ops, []any{"d", slices.Clone(append(path, k))})
		}
	case []any:
		av, ok := a.([]any)
		if !ok {
			d.set(path, b)
			return
		}
		if k := shifted(av, bv); k > 0 {
			// A window that moved on (a history's latest entries): the
			// first k go, the rest are appended.
			d.ops = append(d.ops, []any{"p", slices.Clone(path), k})
			for i := len(av) - k; i < len(bv); i++ {
				d.set(append(path, i), bv[i])
			}
			return
		}
		n := min(len(av), len(bv))
		for i := range n {
			d.diff(append(path, i), av[i], bv[i])
		}
		for i := n; i < len(bv); i++ {
			d.set(append(path, i), bv[i])
		}
		if len(bv) < len(av) {
			d.ops = append(d.ops, []any{"t", slices.Clone(path), len(bv)})
		}
	default:
		if !sameScalar(a, b) {
			d.set(path, b)
		}
	}
}

// shifted returns k > 0 when b is a with its first k elements gone and
// others appended (a[k:] begins b), for the smallest such k that keeps at
// least one element; 0 otherwise.
func shifted(a, b []any) int {
	for k := 1; k < len(a); k++ {
		if len(a)-k > len(b) {
			continue
		}
		same := true
		for i := k; i < len(a) && same; i++ {
			same = equalTree(a[i], b[i-k])
		}
		if same {
			if equalPrefix(a, b) {
				return 0 // b only grew: appending is cheaper
			}
			return k
		}
	}
	return 0
}

// equalPrefix reports whether b begins with every element of a.
func equalPrefix(a, b []any) bool {
	if len(b) < len(a) {
		return false
	}
	for i := range a {
		if !equalTree(a[i], b[i]) {
			return false
		}
	}
	return true
}

// equalTree reports whether two decoded views are equal.
func equalTree(a, b any) bool {
	switch av := a.(type) {
	case map[string]any:
		bv, ok := b.(map[string]any)
		if !ok || len(av) != len(bv) {
			return false
		}
		for k, x := range av {
			y, ok := bv[k]
			if !ok || !equalTree(x, y) {
				return false
			}
		}
		return true
	case []any:
		bv, ok := b.([]any)
		if !ok || len(av) != len(bv) {
			return false
		}
		for i := range av {
			if !equalTree(av[i], bv[i]) {
				return false
			}
		}
		return true
	}
	return sameScalar(a, b)
}

func (d *delta) set(path []any, v any) {
	d.ops = append(d.ops, []any{"s", slices.Clone(path), v})
}

// sameScalar reports whether two decoded scalars are equal as written.
func sameScalar(a, b any) bool {
	switch av := a.(type) {
	case json.Number:
		bv, ok := b.(json.Number)
		return ok && av == bv
	case string:
		bv, ok := b.(string)
		return ok && av == bv
	case bool:
		bv, ok := b.(bool)
		return ok && av == bv
	case nil:
		return b == nil
	}
	return false
}
