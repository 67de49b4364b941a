package server

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/arbiter-games/arbiter/catalog"
	"github.com/arbiter-games/arbiter/engine"
	"github.com/arbiter-games/arbiter/player"
	"github.com/arbiter-games/arbiter/store"
)

// routes lays out the API, from the table of operations.
func (s *Server) routes() {
	m := http.NewServeMux()
	for _, op := range operations {
		m.HandleFunc(op.method+" "+op.path, op.handle(s))
	}
	m.HandleFunc("/api/", func(w http.ResponseWriter, r *http.Request) {
		if allow := allowed(m, r); allow != "" {
			w.Header().Set("Allow", allow)
			s.writeError(w, r, refuse(http.StatusMethodNotAllowed, "method-not-allowed", "%s is not a call of %s; its calls are %s", r.Method, r.URL.Path, allow))
			return
		}
		s.writeError(w, r, refuse(http.StatusNotFound, "no-such-call", "%s %s is not a call of the API; the calls are listed at /api/v1/openapi.json", r.Method, r.URL.Path))
	})
	s.mux = m
}

// allowed lists the methods of the API's calls on r's path, as an Allow
// header says them: "" when the path has none.
func allowed(m *http.ServeMux, r *http.Request) string {
	var methods []string
	for _, method := range []string{http.MethodGet, http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete} {
		if method == r.Method {
			continue
		}
		try := &http.Request{Method: method, URL: r.URL, Host: r.Host, Header: http.Header{}}
		if _, pattern := m.Handler(try); pattern != "" && pattern != "/api/" {
			methods = append(methods, method)
		}
	}
	return strings.Join(methods, ", ")
}

// matchConfig is what the server keeps of a match beside its setup.
type matchConfig struct {
	// Specs are the seats' players as given at creation, from which its
	// bots are made again after a restart; Names name people's seats.
	Specs []string `json:"specs"`
	Names []string `json:"names,omitempty"`
	// Judge says the match has a judge.
	Judge bool `json:"judge"`
	// Seeded says the creator chose the seed, and so may know the hidden
	// draws.
	Seeded bool        `json:"seeded"`
	Time   timeControl `json:"time"`
	// Resigned are the seats whose players have left.
	Resigned []int `json:"resigned,omitempty"`
}

// timeControl is a match's time control, in milliseconds.
type timeControl struct {
	// Decision bounds each decision of a bot (default 1000).
	Decision int64 `json:"decision_ms,omitempty"`
	// Reply bounds each answer a bot owes to another seat's move.
	Reply int64 `json:"reply_ms,omitempty"`
	// People bounds each decision of a person; 0 is none.
	People int64 `json:"people_ms,omitempty"`
	// Bank is a time bank per seat for the whole match.
	Bank int64 `json:"bank_ms,omitempty"`
	// OnTimeout is default (play the default move) or forfeit (play the
	// default, and every later one).
	OnTimeout string `json:"on_timeout,omitempty"`
}

func (t timeControl) check() error {
	switch {
	case t.Decision < 0 || t.Reply < 0 || t.People < 0 || t.Bank < 0:
		return refuse(http.StatusBadRequest, "invalid", "time: durations are milliseconds, 0 or more")
	case t.Decision > 3600_000 || t.Reply > 3600_000 || t.People > 7*24*3600_000 || t.Bank > 24*3600_000:
		return refuse(http.StatusBadRequest, "invalid", "time: a bot's decision and reply at most an hour, a person's a week, a bank a day")
	case t.OnTimeout != "" && t.OnTimeout != "default" && t.OnTimeout != "forfeit":
		return refuse(http.StatusBadRequest, "invalid", "time.on_timeout %q: give default or forfeit", t.OnTimeout)
	}
	return nil
}

// decision is a bot's time for a request, or a person's.
func (t timeControl) limit(bot, reply bool) time.Duration {
	ms := t.People
	if bot {
		ms = t.Decision
		if ms == 0 {
			ms = 1000
		}
		if reply && t.Reply > 0 {
			ms = t.Reply
		}
	}
	return time.Duration(ms) * time.Millisecond
}

// readBody decodes a JSON request body of at most the server's limit into
// v, refusing unknown fields, trailing data and bodies too large.
func (s *Server) readBody(w http.ResponseWriter, r *http.Request, v any) ([]byte, error) {
	body, err := s.readAll(w, r, s.cfg.Limits.Body, "the body")
	if err != nil {
		return nil, err
	}
	if err := engine.DecodeJSON(body, v); err != nil {
		return nil, refuse(http.StatusBadRequest, "bad-json", "the body is not the JSON this call takes: %v", err)
	}
	return body, nil
}

// readAll reads a request's body (what, for the refusals) of at most limit
// bytes, which must arrive whole within the server's BodyTime: a body too
// large is 413 too-large, one too slow 408 slow-body.
func (s *Server) readAll(w http.ResponseWriter, r *http.Request, limit int64, what string) ([]byte, error) {
	rc := http.NewResponseController(w)
	timed := rc.SetReadDeadline(time.Now().Add(s.cfg.Limits.BodyTime)) == nil
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, limit))
	if err != nil {
		return nil, s.bodyError(err, what, len(body))
	}
	if timed {
		rc.SetReadDeadline(time.Time{}) // the connection's next requests
	}
	return body, nil
}

// bodyError is the refusal of a body (what) that could not be read
// whole, got bytes of it having come: too large (413), too slow (408),
// or cut (400).
func (s *Server) bodyError(err error, what string, got int) error {
	var mb *http.MaxBytesError
	var ne net.Error
	switch {
	case errors.As(err, &mb):
		return tooLarge(what, mb.Limit)
	case errors.As(err, &ne) && ne.Timeout():
		return refuse(http.StatusRequestTimeout, "slow-body", "%s did not arrive whole within %s (%d bytes had come); send it at once", what, lasting(s.cfg.Limits.BodyTime), got)
	}
	return refuse(http.StatusBadRequest, "bad-body", "%s could not be read: %v", what, err)
}

// tooLarge refuses a body (what) over limit bytes.
func tooLarge(what string, limit int64) error {
	return refuse(http.StatusRequestEntityTooLarge, "too-large", "%s is larger than %d bytes, the most this server takes", what, limit)
}

// gameEntry is a game as GET /games shows it.
type gameEntry struct {
	Name        string          `json:"name"`
	Title       string          `json:"title"`
	Seats       seatRange       `json:"seats"`
	Options     []optionEntry   `json:"options"`
	Players     []string        `json:"players"`
	Default     []string        `json:"default_players"`
	Presets     []string        `json:"presets,omitempty"`
	Modes       []catalog.Mode  `json:"-"`
	ModeEntries []modeEntry     `json:"modes"`
	Rules       string          `json:"rules"`
	Measures    json.RawMessage `json:"-"`
}

// modeEntry is a live mode as GET /games shows it, with its ruleset's
// seats and options.
type modeEntry struct {
	catalog.Mode
	Seats   seatRange     `json:"seats"`
	Options []optionEntry `json:"options"`
}

// optionEntries are a ruleset's options as GET /games shows them.
func optionEntries(options []engine.Option) []optionEntry {
	out := []optionEntry{}
	for _, o := range options {
		oe := optionEntry{Name: o.Name, Default: o.Default, Usage: o.Usage, Kind: [...]string{"int", "bool", "string"}[o.Kind]}
		if o.Kind == engine.IntOption {
			min, max := o.Min, o.Max
			oe.Min, oe.Max = &min, &max
		}
		out = append(out, oe)
	}
	return out
}

type seatRange struct {
	Min int `json:"min"`
	Max int `json:"max"`
}

type optionEntry struct {
	Name    string `json:"name"`
	Kind    string `json:"kind"`
	Default string `json:"default"`
	Usage   string `json:"usage"`
	Min     *int   `json:"min,omitempty"`
	Max     *int   `json:"max,omitempty"`
}

func (s *Server) games(w http.ResponseWriter, r *http.Request) {
	var out []gameEntry
	for _, g := range catalog.Games() {
		lg, ok := g.(catalog.LiveGame)
		if !ok {
			continue
		}
		info := g.Info()
		e := gameEntry{Name: info.Name, Title: info.Title, Seats: seatRange{info.MinSeats, info.MaxSeats},
			Players: append(slices.Clone(info.Players), catalog.Person), Default: strings.Split(info.DefaultPlayers, ","),
			Modes: lg.Modes(), Rules: info.Rules, Options: []optionEntry{}, Presets: info.Presets}
		for _, m := range e.Modes {
			mi, err := lg.ModeInfo(m.Name)
			if err != nil {
				continue
			}
			me := modeEntry{Mode: m, Seats: seatRange{mi.MinSeats, mi.MaxSeats}, Options: optionEntries(mi.Options)}
			e.ModeEntries = append(e.ModeEntries, me)
		}
		e.Options = optionEntries(info.Options)
		out = append(out, e)
	}
	writeJSON(w, http.StatusOK, out)
}

// createBody is what POST /matches takes.
type createBody struct {
	Game    string            `json:"game"`
	Mode    string            `json:"mode"`
	Seats   []seatBody        `json:"seats"`
	Options map[string]any    `json:"options"`
	Seed    *uint64           `json:"seed"`
	Judge   bool              `json:"judge"`
	Private bool              `json:"private"`
	Time    timeControl       `json:"time"`
	Extra   map[string]string `json:"-"`
}

type seatBody struct {
	Player string `json:"player"`
	// Name names a person's seat (a zombie judge's players).
	Name string `json:"name"`
}

// seatLink is a seat as the creation answer shows it.
type seatLink struct {
	Seat   int    `json:"seat"`
	Player string `json:"player"`
	Secret string `json:"secret,omitempty"`
	URL    string `json:"url,omitempty"`
}

func (s *Server) create(w http.ResponseWriter, r *http.Request) {
	if err := s.mayCreate(r); err != nil {
		s.writeError(w, r, err)
		return
	}
	wait, made := s.limiter.create(s.clientKey(r))
	if wait > 0 {
		s.writeError(w, r, rateLimited(wait, "too many matches created from this address; at most %g a minute, %d at once", s.cfg.Limits.Creates, s.cfg.Limits.createBurst()))
		return
	}
	var body createBody
	_, err := s.readBody(w, r, &body)
	var id, judge string
	var links []seatLink
	var warnings []string
	if err == nil {
		id, links, judge, warnings, err = s.newMatch(r.Context(), body)
	}
	if err == nil || !isMistake(err) {
		made() // a body's mistakes make no match, and do not use up the creations
	}
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	base := s.origin(r)
	if links == nil {
		links = []seatLink{} // a referee's match: its players join by actions
	}
	out := map[string]any{"id": id, "seats": links, "watch_url": base + "/m/" + id, "warnings": warnings}
	for i := range links {
		if links[i].Secret != "" {
			links[i].URL = base + "/m/" + id + "#s=" + links[i].Secret
		}
	}
	if judge != "" {
		out["judge"] = map[string]string{"secret": judge, "url": base + "/m/" + id + "#s=" + judge}
	}
	s.log.InfoContext(r.Context(), "match created", "match", id, "game", body.Game, "seats", len(links))
	writeJSON(w, http.StatusCreated, out)
}

// newMatch checks a creation body, starts the match, stores it and its
// secrets' hashes, and starts driving it. It returns the match's id, its
// seats (with the secrets of people), the judge's secret, and what its
// options allow but a game is unlikely to want (optionWarnings).
func (s *Server) newMatch(ctx context.Context, body createBody) (id string, links []seatLink, judgeSecret string, warnings []string, err error) {
	g, err := catalog.Find(body.Game)
	if err != nil {
		return "", nil, "", nil, err
	}
	lg, ok := g.(catalog.LiveGame)
	if !ok {
		return "", nil, "", nil, catalog.Invalidf("%s cannot be played live", body.Game)
	}
	mode, err := findMode(lg.Modes(), body.Mode, g.Info().Name)
	if err != nil {
		return "", nil, "", nil, err
	}
	info, err := lg.ModeInfo(mode.Name)
	if err != nil {
		return "", nil, "", nil, err
	}
	if err := body.Time.check(); err != nil {
		return "", nil, "", nil, err
	}
	options, err := optionStrings(info, body.Options)
	if err != nil {
		var unknown unknownOption
		if errors.As(err, &unknown) {
			err = noOption(lg, mode, info, string(unknown))
		}
		return "", nil, "", nil, err
	}
	specs := make([]string, len(body.Seats))
	names := make([]string, len(body.Seats))
	for i, seat := range body.Seats {
		names[i] = strings.TrimSpace(seat.Name)
		if n := utf8.RuneCountInString(names[i]); n > 40 {
			return "", nil, "", nil, catalog.Invalidf("seat %d: a name of %d characters; a name has at most 40", i, n)
		}
		if k := strings.IndexFunc(names[i], func(r rune) bool { return !unicode.IsPrint(r) }); k >= 0 {
			r, _ := utf8.DecodeRuneInString(names[i][k:])
			return "", nil, "", nil, catalog.Invalidf("seat %d: the name %q holds %U, which is not printed; a name is letters, digits, punctuation, symbols and spaces", i, names[i], r)
		}
		spec := strings.TrimSpace(seat.Player)
		switch {
		case spec == "":
			return "", nil, "", nil, catalog.Invalidf("seat %d: no player; give a built-in bot, %q, or the URL of a bot", i, catalog.Person)
		case player.IsExternal(spec) && !strings.HasPrefix(spec, "exec:"):
			if err := checkBotURL(ctx, spec, s.cfg.AllowPrivateBots); err != nil {
				return "", nil, "", nil, catalog.Invalidf("seat %d: %v", i, err)
			}
		}
		specs[i] = spec
	}
	seed := randomSeed()
	if body.Seed != nil {
		seed = *body.Seed
	}
	if options, err = catalog.ReadBoardMap(info.Name, options, s.cfg.Maps); err != nil {
		return "", nil, "", nil, err
	}
	setup := engine.Setup{Seed: seed, Players: specs, Options: options}
	live, err := lg.NewLive(ctx, catalog.LiveSetup{Setup: setup, Mode: mode.Name, External: s.rules.external, Names: names, Quiet: true, Creating: true})
	if err != nil {
		return "", nil, "", nil, err
	}
	seatNames := live.Names()
	bots := make([]bool, len(seatNames))
	for i := range seatNames {
		bots[i] = live.Bot(i)
	}
	rules := live.Info() // the mode's ruleset, which the record names
	live.Close()
	cfg := matchConfig{Specs: specs, Names: names, Judge: body.Judge || mode.Judge, Seeded: body.Seed != nil, Time: body.Time}
	config, _ := json.Marshal(cfg)
	id = newID()
	setup.Players = seatNames
	m := &store.Match{ID: id, Game: info.Name, Variant: rules.Variant, RulesVersion: rules.Version, Mode: mode.Name,
		Setup: setup, Config: config, Listed: !body.Private}
	var secrets []store.Secret
	for seat, name := range seatNames {
		link := seatLink{Seat: seat, Player: name}
		if !bots[seat] {
			secret, hash := newSecret()
			link.Secret = secret
			secrets = append(secrets, store.Secret{Hash: hash, Role: store.SeatRole, Seat: seat})
		}
		links = append(links, link)
	}
	if cfg.Judge {
		secret, hash := newSecret()
		judgeSecret = secret
		secrets = append(secrets, store.Secret{Hash: hash, Role: store.JudgeRole, Seat: engine.Judge})
	}
	if err := s.cfg.Store.Create(ctx, m, secrets); err != nil {
		return "", nil, "", nil, err
	}
	s.drive(id)
	return id, links, judgeSecret, optionWarnings(info, options), nil
}

// findMode returns the mode called name (the first for "").
func findMode(modes []catalog.Mode, name, game string) (catalog.Mode, error) {
	if name == "" {
		return modes[0], nil
	}
	var names []string
	for _, m := range modes {
		if m.Name == name {
			return m, nil
		}
		names = append(names, strconv.Quote(m.Name))
	}
	if len(modes) == 1 && modes[0].Name == "" {
		return catalog.Mode{}, catalog.Invalidf("%s has no mode %q: it is played live one way; leave out \"mode\"", game, name)
	}
	return catalog.Mode{}, catalog.Invalidf("%s has no mode %q; its modes are %s", game, name, strings.Join(names, ", "))
}

// unknownOption is the name of an option a creation body gives that its
// game's mode does not take; noOption words it.
type unknownOption string

func (u unknownOption) Error() string { return fmt.Sprintf("no option %q", string(u)) }

// noOption refuses option name, which mode of game lg (whose ruleset is
// info) does not take: it lists the mode's options, or says that it takes
// none and where its match takes its settings from; and it names the
// other modes that take the option.
func noOption(lg catalog.LiveGame, mode catalog.Mode, info engine.Info, name string) error {
	which := info.Name
	if mode.Name != "" {
		which = fmt.Sprintf("%s's %s mode", info.Name, mode.Name)
	}
	var msg string
	if len(info.Options) == 0 {
		msg = fmt.Sprintf("%s takes no options, so not %q", which, name)
		if mode.Settings != "" {
			msg += ": " + mode.Settings
		}
	} else {
		names := make([]string, len(info.Options))
		for i, o := range info.Options {
			names[i] = o.Name
		}
		msg = fmt.Sprintf("%s has no option %q; its options are %s", which, name, strings.Join(names, ", "))
	}
	var others []string
	for _, m := range lg.Modes() {
		if m.Name == mode.Name {
			continue
		}
		if mi, err := lg.ModeInfo(m.Name); err == nil && slices.ContainsFunc(mi.Options, func(o engine.Option) bool { return o.Name == name }) {
			others = append(others, fmt.Sprintf(`"mode": %q`, m.Name))
		}
	}
	if len(others) > 0 {
		msg += fmt.Sprintf("; %q is an option of %s", name, strings.Join(others, " and of "))
	}
	return catalog.Invalidf("%s", msg)
}

// optionStrings checks a creation body's options against the game's and
// writes every option out, the defaults included, as a record keeps them.
// An option the game does not take is an unknownOption.
func optionStrings(info engine.Info, given map[string]any) (map[string]string, error) {
	out := map[string]string{}
	for name, v := range given {
		var o *engine.Option
		for i := range info.Options {
			if info.Options[i].Name == name {
				o = &info.Options[i]
			}
		}
		if o == nil {
			return nil, unknownOption(name)
		}
		switch v := v.(type) {
		case string:
			out[name] = v
		case bool:
			out[name] = strconv.FormatBool(v)
		case float64:
			if v != float64(int64(v)) {
				return nil, catalog.Invalidf("option %s: %v is not a whole number", name, v)
			}
			out[name] = strconv.FormatInt(int64(v), 10)
		default:
			b, _ := json.Marshal(v)
			out[name] = string(b) // a preset's object, a board
		}
	}
	for _, o := range info.Options {
		if _, ok := out[o.Name]; !ok {
			out[o.Name] = o.Default
		}
	}
	return out, nil
}

// optionWarnings says what a match's options allow but a game is unlikely
// to want (engine.Option.Warn), one sentence each, named by the option:
// "board: the map is in 2 parts that no move or attack crosses: ...". It
// is empty, not nil, when there is nothing to say.
func optionWarnings(info engine.Info, options map[string]string) []string {
	out := []string{}
	for _, o := range info.Options {
		if o.Warn == nil {
			continue
		}
		if msg := o.Warn(options[o.Name]); msg != "" {
			out = append(out, o.Name+": "+msg)
		}
	}
	return out
}

// randomSeed draws a seed no player can guess: 64 random bits.
func randomSeed() uint64 {
	var b [8]byte
	rand.Read(b[:])
	var v uint64
	for _, x := range b {
		v = v<<8 | uint64(x)
	}
	return v
}

// newID returns a new match id: 12 random bytes, as hex.
func newID() string {
	var b [8]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// origin is where links point: the public URL, or the request's own.
func (s *Server) origin(r *http.Request) string {
	if s.cfg.PublicURL != "" {
		return strings.TrimRight(s.cfg.PublicURL, "/")
	}
	scheme := "http"
	if r.TLS != nil {
		scheme = "https"
	}
	return scheme + "://" + r.Host
}

// matchView is a match as a caller sees it.
type matchView struct {
	ID     string       `json:"id"`
	Game   string       `json:"game"`
	Mode   string       `json:"mode,omitempty"`
	Status store.Status `json:"status"`
	Seq    int64        `json:"seq"`
	// Clock is the match's time (a turn, a cycle: ClockName), in the
	// games that keep one.
	Clock     *int            `json:"clock,omitempty"`
	ClockName string          `json:"clock_name,omitempty"`
	You       youView         `json:"you"`
	Judge     bool            `json:"judge"`
	Seeded    bool            `json:"seeded"`
	Seats     []seatView      `json:"seats"`
	View      json.RawMessage `json:"view"`
	// Told is what the match's last move (move Seq) did, in a game whose
	// moves are public (catalog.Tells: territories' actions, an attack's
	// roll and losses): the same for every caller.
	Told *catalog.Told `json:"told,omitempty"`
	// TurnOf is the seat whose turn it is, in the games played one seat
	// at a time (catalog.Turns), while the match runs.
	TurnOf   *int           `json:"turn_of,omitempty"`
	Requests []requestView  `json:"requests"`
	Result   *engine.Result `json:"result,omitempty"`
}

type youView struct {
	Role string `json:"role"` // seat, judge, player or spectator
	Seat *int   `json:"seat,omitempty"`
	Name string `json:"name,omitempty"`
	// Out tells a seat out of the match while the others play on when
	// and why (catalog.Outs).
	Out string `json:"out,omitempty"`
}

type seatView struct {
	Seat     int    `json:"seat"`
	Player   string `json:"player"`
	Person   bool   `json:"person"`
	Resigned bool   `json:"resigned,omitempty"`
}

// requestView is a request as the API shows it: the protocol's, with its
// seat and deadline.
type requestView struct {
	ID       int64             `json:"id"`
	Seat     int               `json:"seat"`
	Kind     string            `json:"kind"`
	Choices  []json.RawMessage `json:"choices,omitempty"`
	Default  json.RawMessage   `json:"default"`
	Deadline *time.Time        `json:"deadline,omitempty"`
}

// configOf returns a match's settings, read once for each version of them.
func (s *Server) configOf(row *store.Match) matchConfig {
	if v, ok := s.configs.Load(row.ID); ok {
		if c := v.(*parsedConfig); bytes.Equal(c.raw, row.Config) {
			return c.cfg
		}
	}
	c := &parsedConfig{raw: bytes.Clone(row.Config)}
	json.Unmarshal(row.Config, &c.cfg)
	s.configs.Store(row.ID, c)
	return c.cfg
}

// parsedConfig is a match's settings, with the JSON they were read from.
type parsedConfig struct {
	raw []byte
	cfg matchConfig
}

// viewOf is the match as c sees it now; the caller holds the match's lock.
// Views, if not nil, are the views of the match at row.Seq already made,
// which it takes c's from, or keeps it in.
func (s *Server) viewOf(row *store.Match, live catalog.Live, c caller, views *views) matchView {
	cfg := s.configOf(row)
	v := matchView{ID: row.ID, Game: row.Game, Mode: row.Mode, Status: row.Status, Seq: seqFor(c, row, live), Judge: cfg.Judge, Seeded: cfg.Seeded,
		Requests: []requestView{}, Seats: make([]seatView, 0, len(row.Setup.Players))}
	if now, name, ok := live.Clock(); ok {
		v.Clock, v.ClockName = &now, name
	}
	for seat, name := range row.Setup.Players {
		v.Seats = append(v.Seats, seatView{Seat: seat, Player: name, Person: !live.Bot(seat), Resigned: slices.Contains(cfg.Resigned, seat)})
	}
	switch c.role {
	case store.SeatRole:
		seat := c.seat
		v.You = youView{Role: "seat", Seat: &seat}
		if o, ok := live.(catalog.Outs); ok && row.Status == store.Running {
			v.You.Out = o.Out(seat)
		}
	case store.JudgeRole:
		v.You = youView{Role: "judge"}
	case store.PlayerRole:
		v.You = youView{Role: "player", Name: c.name}
	default:
		v.You = youView{Role: "spectator"}
	}
	v.View = views.of(row.Seq, c, live)
	if t, ok := live.(catalog.Tells); ok && v.Seq == row.Seq && row.Seq > 0 {
		if told, ok := t.Told(); ok {
			v.Told = &told
		}
	}
	if t, ok := live.(catalog.Turns); ok && row.Status == store.Running {
		if seat, ok := t.TurnOf(); ok {
			v.TurnOf = &seat
		}
	}
	if row.Status == store.Running {
		for _, q := range live.Pending() {
			if c.role == store.JudgeRole || c.role == store.SeatRole && q.Seat == c.seat {
				rv := requestView{ID: q.ID, Seat: q.Seat, Kind: string(q.Kind), Choices: q.Choices, Default: q.Default}
				rv.Deadline = deadlineOf(row, q, live.Bot(q.Seat), cfg)
				v.Requests = append(v.Requests, rv)
			}
		}
	}
	if row.Status != store.Running {
		v.Result = s.resultOf(row)
	}
	return v
}

// seqFor is the match's move as c may know it: the moves c is told of.
// A seat's move that leaves the rest of its round open is told only to its
// mover and the judge until the round resolves (catalog.Live's
// Unresolved): to anyone else the match is still at the move that began
// the round, and to a seat that answered in it, at that move and its own
// answers after it, wherever they came among the others', so that neither
// its views nor its number say whether, or how many, other seats have
// answered.
func seqFor(c caller, row *store.Match, live catalog.Live) int64 {
	if c.role == store.JudgeRole || row.Status != store.Running {
		return row.Seq
	}
	seq := toldSeq(c, row, live, row.Seq)
	if owedHides(c, live) {
		seq-- // the move that waits for an answer
	}
	return seq
}

// toldSeq is the place of the log's move logged as c may know it: how
// many of the log's moves up to it c is told of (seqFor counts up to the
// match's last move). A move of the round under way that c is told of is
// its own, and comes to c right after the round's start and its own
// answers before it; one of a resolved round is where the log has it.
func toldSeq(c caller, row *store.Match, live catalog.Live, logged int64) int64 {
	if c.role == store.JudgeRole || row.Status != store.Running {
		return logged
	}
	open := live.Unresolved()
	start := row.Seq - int64(len(open)) // the move that began the round
	if logged <= start {
		return logged
	}
	seq := start
	if c.role == store.SeatRole {
		for _, seat := range open[:min(logged-start, int64(len(open)))] {
			if seat == c.seat {
				seq++ // its own answer
			}
		}
	}
	return seq
}

// owedHides says whether c is not told of the match's last move yet: a
// move that waits for another seat's answer, which only those two seats
// and the judge know is owed (catalog.Owes: a TNCC trade or war), so that
// a spectator or a third country does not learn of it from the match's
// number, or from an event that changes nothing it sees, while the turn
// stays with the mover.
func owedHides(c caller, live catalog.Live) bool {
	o, ok := live.(catalog.Owes)
	if !ok || c.role == store.JudgeRole {
		return false
	}
	from, to, owed := o.Owed()
	return owed && !(c.role == store.SeatRole && (c.seat == from || c.seat == to))
}

// toldMoves returns the moves of the match's log that c is told of (of a
// match under way: those before the round under way, and c's own in it;
// seqFor counts them).
func toldMoves(c caller, row *store.Match, live catalog.Live, moves []store.Move) []store.Move {
	if c.role == store.JudgeRole || row.Status != store.Running || int64(len(moves)) < row.Seq {
		return moves
	}
	if owedHides(c, live) {
		return moves[:row.Seq-1]
	}
	open := live.Unresolved()
	start := row.Seq - int64(len(open))
	told := moves[:start:start]
	for i, seat := range open {
		if c.role == store.SeatRole && seat == c.seat {
			told = append(told, moves[start+int64(i)])
		}
	}
	return told
}

// seenBy is seqFor for a submission's ExpectSeq: the match's move as
// the caller may know it.
func seenBy(c caller) func(*store.Match, store.Live) int64 {
	if c.role == store.JudgeRole {
		return nil
	}
	return func(row *store.Match, live store.Live) int64 { return seqFor(c, row, live.(catalog.Live)) }
}

// toldBy is toldSeq for a submission's answer (store.Submission's Told).
func toldBy(c caller) func(*store.Match, store.Live, int64) int64 {
	if c.role == store.JudgeRole {
		return nil
	}
	return func(row *store.Match, live store.Live, logged int64) int64 {
		return toldSeq(c, row, live.(catalog.Live), logged)
	}
}

// resultOf is the result of a match over as reports count it: a seat that
// never once answered (every move made for it a default, for a timeout, a
// resignation or the judge) cannot win, as in arbiter play's reports
// (engine.Result.Adjudicated). The record keeps the rules' own result.
func (s *Server) resultOf(row *store.Match) *engine.Result {
	if row.Status != store.Over || row.Result == nil {
		return row.Result
	}
	if v, ok := s.results.Load(row.ID); ok {
		return v.(*engine.Result)
	}
	absent, err := s.cfg.Store.Absent(context.Background(), row.ID, row.Setup.Seats())
	if err != nil {
		return row.Result // the rules' result, until the moves can be read
	}
	res := row.Result.Adjudicated(absent)
	s.results.Store(row.ID, &res)
	return &res
}

func (s *Server) show(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	c, err := s.who(r, id)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	var body []byte
	err = s.ref.With(r.Context(), id, func(row *store.Match, live store.Live) error {
		v := s.viewOf(row, live.(catalog.Live), c, s.viewsOf(row.ID))
		body = v.appendJSON(make([]byte, 0, 1024))
		return nil
	})
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.Write(append(body, '\n'))
}

// listEntry is a match as the list shows it.
type listEntry struct {
	ID     string       `json:"id"`
	Game   string       `json:"game"`
	Mode   string       `json:"mode,omitempty"`
	Status store.Status `json:"status"`
	// Seq is where the match is as anyone sees it; nil when a match under
	// way cannot be loaded to count it (its stored number could count
	// answers of a round nobody is told of yet).
	Seq     *int64    `json:"seq"`
	Created time.Time `json:"created"`
	Seats   []string  `json:"seats"`
	People  int       `json:"people"`
}

func (s *Server) list(w http.ResponseWriter, r *http.Request) {
	limit := 50
	if l := r.URL.Query().Get("limit"); l != "" {
		n, err := strconv.Atoi(l)
		if err != nil || n < 1 || n > 500 {
			s.writeError(w, r, refuse(http.StatusBadRequest, "invalid", "limit %q: give 1 to 500", l))
			return
		}
		limit = n
	}
	before := s.now().Add(time.Minute)
	if b := r.URL.Query().Get("before"); b != "" {
		t, err := time.Parse(time.RFC3339Nano, b)
		if err != nil {
			s.writeError(w, r, refuse(http.StatusBadRequest, "invalid", "before %q: give a time as RFC 3339, as the last page's next_before", b))
			return
		}
		before = t
	}
	ms, err := s.cfg.Store.List(r.Context(), before, limit)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	out := struct {
		Matches    []listEntry `json:"matches"`
		NextBefore *time.Time  `json:"next_before,omitempty"`
	}{Matches: []listEntry{}}
	for _, m := range ms {
		var cfg matchConfig
		json.Unmarshal(m.Config, &cfg)
		people := 0
		for _, p := range cfg.Specs {
			if p == catalog.Person {
				people++
			}
		}
		seats := m.Setup.Players
		if seats == nil {
			seats = []string{} // a referee's match: its players join by actions
		}
		seq := &m.Seq
		if m.Status == store.Running {
			// As anyone sees it: not counting the moves of a round under
			// way that its others are not told of yet.
			seq = nil
			err := s.ref.With(r.Context(), m.ID, func(row *store.Match, live store.Live) error {
				n := seqFor(caller{}, row, live.(catalog.Live))
				seq = &n
				return nil
			})
			if err != nil {
				s.log.WarnContext(r.Context(), "listing a match it cannot load", "match", m.ID, "err", err)
			}
		}
		out.Matches = append(out.Matches, listEntry{ID: m.ID, Game: m.Game, Mode: m.Mode, Status: m.Status, Seq: seq, Created: m.Created, Seats: seats, People: people})
	}
	if len(ms) >= limit {
		// A page ends where a millisecond does (store.List): the next
		// one begins before it.
		t := ms[len(ms)-1].Created
		out.NextBefore = &t
	}
	writeJSON(w, http.StatusOK, out)
}

// moveBody is what POST /matches/{id}/moves takes.
type moveBody struct {
	Request   *int64          `json:"request"`
	Move      json.RawMessage `json:"move"`
	ExpectSeq *int64          `json:"expect_seq"`
	// IssueSecret, on a judge's move that makes a named player join
	// (territories' referee), asks for that player's own secret.
	IssueSecret bool `json:"issue_secret"`
}

// numbers refuses a move's request id or expect_seq below 0: a request is
// one the match asked (GET the match for them), a move a number from 0.
// (Left out, they are nil.)
func numbers(request, expectSeq *int64) error {
	if request != nil && *request < 0 {
		return refuse(http.StatusBadRequest, "invalid", `request %d: give the id of a request open to you (0 or more; GET the match for them), or leave "request" out for a move that answers none (the judge's)`, *request)
	}
	if expectSeq != nil && *expectSeq < 0 {
		return refuse(http.StatusBadRequest, "invalid", "expect_seq %d: give the number of the last move you saw (the match's seq, 0 or more)", *expectSeq)
	}
	return nil
}

func (s *Server) move(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	c, err := s.who(r, id)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	if c.anyone() {
		s.writeError(w, r, errNoSecret)
		return
	}
	if wait := s.limiter.move(c.key); wait > 0 {
		s.writeError(w, r, rateLimited(wait, "more than %g moves a second with this secret", s.cfg.Limits.Moves))
		return
	}
	var body moveBody
	raw, err := s.readBody(w, r, &body)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	if len(body.Move) == 0 {
		s.writeError(w, r, refuse(http.StatusBadRequest, "bad-json", `the body has no "move"`))
		return
	}
	if engine.NullMove(body.Move) {
		// No game's move, in any game, and refused before the move's
		// turn is ended or a joiner looked for.
		s.writeError(w, r, engine.RefuseNullMove())
		return
	}
	if err := numbers(body.Request, body.ExpectSeq); err != nil {
		s.writeError(w, r, err)
		return
	}
	sub := store.Submission{Match: id, Actor: c.actor(), Request: -1, ExpectSeq: -1, Move: body.Move, Seen: seenBy(c), Told: toldBy(c)}
	if body.ExpectSeq != nil {
		sub.ExpectSeq = *body.ExpectSeq
	}
	switch {
	case body.Request != nil:
		sub.Request = *body.Request
		if c.role == store.JudgeRole {
			// The judge answers for the seat the request is owed by.
			seat, ok := s.seatOf(r.Context(), id, sub.Request)
			if !ok {
				s.writeError(w, r, store.ErrStale)
				return
			}
			sub.Actor = seat
		}
	case c.role == store.SeatRole:
		s.writeError(w, r, refuse(http.StatusBadRequest, "no-request", `a seat's move answers one of its requests: give "request", the request's id (GET the match for the requests open now)`))
		return
	case c.role == store.PlayerRole:
		// A named player acts for themself: the judge's move, with their
		// name on it. Their action alone, as text, is taken too.
		if action, ok := jsonString(body.Move); ok {
			body.Move, _ = json.Marshal(map[string]string{"action": action})
		}
		move, err := s.asPlayer(r.Context(), id, c.name, body.Move)
		if err != nil {
			s.writeError(w, r, err)
			return
		}
		sub.Move = move
	}
	joiner := ""
	if body.IssueSecret {
		if c.role != store.JudgeRole {
			s.writeError(w, r, refuse(http.StatusForbidden, "judge-only", "only the judge issues players' secrets"))
			return
		}
		name, ok, err := s.joinerOf(r.Context(), id, body.Move)
		if err != nil {
			// No move of the game: its own refusal says why (a join's
			// words, say), not that it is no join.
			s.writeError(w, r, err)
			return
		}
		if !ok {
			s.writeError(w, r, refuse(http.StatusBadRequest, "not-a-join", "issue_secret goes with a judge's move that makes a named player join (territories' referee: {\"player\": \"alice\", \"action\": \"join ...\"})"))
			return
		}
		joiner = name
	}
	if err := idempotencyKey(r, c, "", raw, &sub); err != nil {
		s.writeError(w, r, err)
		return
	}
	answered := false
	if joiner == "" && r.ProtoMajor == 1 {
		// The answer goes out as soon as the move is stored, from the
		// goroutine that stored it: a move's answer does not wait for its
		// handler to be scheduled again, behind the others of its group.
		// (HTTP/1 only: an HTTP/2 answer is written by its connection's
		// own goroutine, which the one that stored it would wait for.)
		sub.Stored = func(seq int64, answer json.RawMessage) {
			answered = answerMoveNow(w, seq, answer, s.cfg.Limits.StreamWrite)
		}
	}
	if sub.Actor == engine.Judge && sub.Request < 0 {
		if err := s.playDue(r.Context(), id, sub.Move); err != nil {
			s.writeError(w, r, err)
			return
		}
	}
	ack, err := s.ref.Submit(r.Context(), sub)
	if answered {
		return
	}
	if err != nil {
		s.writeError(w, r, unguarded(sub, err))
		return
	}
	if joiner == "" {
		answerMove(w, ack.Seq, ack.Repeat, ack.Answer)
		return
	}
	// The joiner's secret. A repeat (the first answer lost on its way)
	// cannot tell the first again, which is kept as its hash only: it
	// gets a new one in its place, so that a retried join still gives the
	// player a link that works.
	secret, hash := newSecret()
	if err := s.cfg.Store.Reissue(r.Context(), store.Secret{Hash: hash, Match: id, Role: store.PlayerRole, Seat: engine.Judge, Name: joiner}); err != nil {
		s.writeError(w, r, err)
		return
	}
	s.forget(id)
	s.revokeStreams(context.WithoutCancel(r.Context()), id)
	answer := map[string]any{"seq": ack.Seq, "repeat": ack.Repeat,
		"player": map[string]string{"name": joiner, "secret": secret, "url": s.origin(r) + "/m/" + id + "#s=" + secret}}
	if ack.Answer != nil {
		answer["outcome"] = ack.Answer
	}
	writeJSON(w, http.StatusOK, answer)
}

// idempotencyKey gives sub the request's Idempotency-Key, if it has one:
// a retry with the same key is answered as the first was, and another
// request with it is refused. call tells apart the calls that make moves
// ("" a move, "correct" a correction), so that a key used for one is
// another request on the other.
func idempotencyKey(r *http.Request, c caller, call string, raw []byte, sub *store.Submission) error {
	key := r.Header.Get("Idempotency-Key")
	if key == "" {
		return nil
	}
	if len(key) > 200 {
		return refuse(http.StatusBadRequest, "invalid", "the Idempotency-Key is longer than 200 characters")
	}
	// A key is its caller's own (a seat's, the judge's, a named player's,
	// whatever their secret now): another's use of the same key is
	// another key, so that trying a key tells nothing of the moves of
	// others.
	who := audience(c)
	head := who + "\n"
	if call != "" {
		head += call + "\n"
	}
	sub.Key, sub.KeyHash = who+"/"+key, requestHash(head, canonicalJSON(raw))
	if before := requestHash(head, raw); before != sub.KeyHash {
		sub.KeyHashBefore = before
	}
	return nil
}

// requestHash is the hash a keyed request is known by: SHA-256, hex, of
// its caller's head and its body.
func requestHash(head string, body []byte) string {
	sum := sha256.Sum256(append([]byte(head), body...))
	return hex.EncodeToString(sum[:])
}

// canonicalJSON is a body as its meaning is compared, so that a retry
// written otherwise is the same request: without the spaces between its
// tokens, its objects' keys in order, its strings as encoding/json writes
// them (é for \u00e9), its numbers as they were written. A body that does
// not read is itself. Servers before compared the bytes as they came
// (KeyHashBefore, for the keys they stored).
func canonicalJSON(raw []byte) []byte {
	d := json.NewDecoder(bytes.NewReader(raw))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		return raw
	}
	b, err := json.Marshal(v)
	if err != nil {
		return raw
	}
	return b
}

// answerMove answers a move committed as move seq: {"repeat":…,"seq":…},
// with "outcome", what the move did, where its game tells it (store.Ack's
// Answer), as json.Marshal writes it, without its work.
func answerMove(w http.ResponseWriter, seq int64, repeat bool, answer json.RawMessage) {
	b := append(strconv.AppendBool(append(answerStart(answer), `"repeat":`...), repeat), `,"seq":`...)
	writeRaw(w, http.StatusOK, append(strconv.AppendInt(b, seq, 10), '}'))
}

// answerStart begins a move's answer: its "outcome" first, when the game tells
// one, as json.Marshal orders the keys.
func answerStart(answer json.RawMessage) []byte {
	b := append(make([]byte, 0, 48+len(answer)), '{')
	if answer != nil {
		b = append(append(append(b, `"outcome":`...), answer...), ',')
	}
	return b
}

// answerMoveNow answers a move stored as move seq, and sends the answer
// at once: with its length, so that nothing follows it when the handler
// returns. A connection that does not take it within limit (its client
// sends moves and does not read their answers) is closed, the move stored:
// a retry with its Idempotency-Key gets the answer. It reports false,
// having written nothing, where the connection takes no deadline: the
// handler answers then.
func answerMoveNow(w http.ResponseWriter, seq int64, answer json.RawMessage, limit time.Duration) bool {
	rc := http.NewResponseController(w)
	if rc.SetWriteDeadline(time.Now().Add(limit)) != nil {
		return false
	}
	defer rc.SetWriteDeadline(time.Time{}) // the connection's next answers
	b := strconv.AppendInt(append(answerStart(answer), `"repeat":false,"seq":`...), seq, 10)
	b = append(b, "}\n"...)
	h := w.Header()
	h.Set("Content-Type", "application/json")
	h.Set("Cache-Control", "no-store")
	h.Set("Content-Length", strconv.Itoa(len(b)))
	w.WriteHeader(http.StatusOK)
	w.Write(b)
	rc.Flush()
	return true
}

// asPlayer makes a named player's move the judge's move for them.
func (s *Server) asPlayer(ctx context.Context, id, name string, move json.RawMessage) (json.RawMessage, error) {
	var out json.RawMessage
	err := s.ref.With(ctx, id, func(_ *store.Match, live store.Live) error {
		named, ok := live.(catalog.Named)
		if !ok {
			return refuse(http.StatusForbidden, "forbidden", "this match has no named players")
		}
		var err error
		out, err = named.AsPlayer(name, move)
		return err
	})
	return out, err
}

// joinerOf returns the player a judge's move makes join, if it does, and
// the refusal of a move that is no move of the match's game.
func (s *Server) joinerOf(ctx context.Context, id string, move json.RawMessage) (string, bool, error) {
	name, ok := "", false
	var err error
	_ = s.ref.With(ctx, id, func(_ *store.Match, live store.Live) error {
		if named, is := live.(catalog.Named); is {
			name, ok, err = named.Joiner(move)
		}
		return nil
	})
	return name, ok, err
}

// seatOf returns the seat that owes request id in match, if it is open.
func (s *Server) seatOf(ctx context.Context, match string, id int64) (int, bool) {
	seat, ok := -1, false
	_ = s.ref.With(ctx, match, func(_ *store.Match, live store.Live) error {
		for _, q := range live.Pending() {
			if q.ID == id {
				seat, ok = q.Seat, true
			}
		}
		return nil
	})
	return seat, ok
}

func (s *Server) resign(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	c, err := s.who(r, id)
	if err == nil && c.role != store.SeatRole {
		err = errSeatOnly
	}
	if err == nil {
		err = s.updateConfig(r.Context(), id, func(cfg *matchConfig) error {
			if slices.Contains(cfg.Resigned, c.seat) {
				return errResignedBefore
			}
			cfg.Resigned = append(cfg.Resigned, c.seat)
			return nil
		})
	}
	again := errors.Is(err, errResignedBefore)
	if err != nil && !again {
		s.writeError(w, r, err)
		return
	}
	if !again {
		s.log.InfoContext(r.Context(), "seat resigned", "match", id, "seat", c.seat)
		s.poke(id)
	}
	writeJSON(w, http.StatusOK, map[string]any{"resigned": c.seat})
}

// errResignedBefore is a resignation of a seat that has resigned: it is
// answered as the first was, and changes, writes and logs nothing.
// Resignations are not counted as moves are (Limits.Moves), and each
// wrote the match's settings again (a transaction synced to the disk, on
// PostgreSQL a notice that every server read the match again for) and a
// line "seat resigned" to the log, as often as a seat's player called.
var errResignedBefore = errors.New("the seat has resigned before")

// updateConfig changes a running match's settings under its lock, as
// they are stored (another server may have changed them).
func (s *Server) updateConfig(ctx context.Context, id string, change func(*matchConfig) error) error {
	return s.ref.Reconfigure(ctx, id, func(row *store.Match) (json.RawMessage, error) {
		if row.Status != store.Running {
			return nil, store.Ended(row.Status)
		}
		var cfg matchConfig
		if err := json.Unmarshal(row.Config, &cfg); err != nil {
			return nil, err
		}
		if err := change(&cfg); err != nil {
			return nil, err
		}
		return json.Marshal(cfg)
	})
}

func (s *Server) abort(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	if err := s.judgeOf(r, id); err != nil {
		s.writeError(w, r, err)
		return
	}
	if err := s.ref.End(r.Context(), id, store.Aborted); err != nil {
		s.writeError(w, r, err)
		return
	}
	s.log.InfoContext(r.Context(), "match aborted", "match", id)
	s.stopDriving(id)
	s.ended(id)
	writeJSON(w, http.StatusOK, map[string]any{"status": store.Aborted})
}

// judgeOf refuses a caller who is not match id's judge.
func (s *Server) judgeOf(r *http.Request, id string) error {
	c, err := s.who(r, id)
	if err != nil {
		return err
	}
	if c.anyone() {
		return errNoSecret
	}
	if c.role != store.JudgeRole {
		return errJudgeOnly
	}
	// The judge's calls write as moves do, and are counted with its moves.
	if wait := s.limiter.move(c.key); wait > 0 {
		return rateLimited(wait, "more than %g moves and calls a second with this secret", s.cfg.Limits.Moves)
	}
	return nil
}

// defaultsBody is what POST /matches/{id}/defaults takes: nothing, or
// the move the judge last saw.
type defaultsBody struct {
	ExpectSeq *int64 `json:"expect_seq"`
}

// defaults plays the default of every open request: the judge ends a turn.
// With expect_seq, only if the match is still at that move: a call sent
// again (its answer lost), or from a page that had not yet seen the turn
// end, does not end the next turn too.
func (s *Server) defaults(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	if err := s.judgeOf(r, id); err != nil {
		s.writeError(w, r, err)
		return
	}
	raw, err := s.readAll(w, r, s.cfg.Limits.Body, "the body")
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	var body defaultsBody
	if len(bytes.TrimSpace(raw)) > 0 {
		if err := engine.DecodeJSON(raw, &body); err != nil {
			s.writeError(w, r, refuse(http.StatusBadRequest, "bad-json", "the body is not the JSON this call takes ({\"expect_seq\": N}, or none): %v", err))
			return
		}
		if err := numbers(nil, body.ExpectSeq); err != nil {
			s.writeError(w, r, err)
			return
		}
	}
	var reqs []catalog.Request
	var seq int64
	if err := s.ref.With(r.Context(), id, func(m *store.Match, live store.Live) error {
		if m.Status != store.Running {
			return store.Ended(m.Status)
		}
		if body.ExpectSeq != nil && *body.ExpectSeq != m.Seq {
			return fmt.Errorf("%w: it is at move %d, not %d: the turn you saw ended (its defaults played, or everyone moved)", store.ErrMoved, m.Seq, *body.ExpectSeq)
		}
		reqs, seq = live.Pending(), m.Seq
		return nil
	}); err != nil {
		s.writeError(w, r, err)
		return
	}
	played := 0
	for _, q := range reqs {
		ack, err := s.ref.Submit(r.Context(), store.Submission{Match: id, Actor: q.Seat, Request: q.ID, ExpectSeq: -1, Move: q.Default,
			Fault: &engine.Fault{Kind: engine.FaultTimeout, Detail: "the judge played the defaults of the open requests"}})
		if errors.Is(err, store.ErrStale) || errors.Is(err, store.ErrOver) {
			continue // answered meanwhile, or the match ended
		}
		if err != nil {
			s.writeError(w, r, err)
			return
		}
		played, seq = played+1, ack.Seq
	}
	writeJSON(w, http.StatusOK, map[string]any{"played": played, "seq": seq})
}

// correctBody is what POST /matches/{id}/correct takes.
type correctBody struct {
	Move      json.RawMessage `json:"move"`
	Reason    string          `json:"reason"`
	ExpectSeq *int64          `json:"expect_seq"`
}

// correct appends the judge's correction: a judge move with its reason.
// The log is never rewritten.
func (s *Server) correct(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	if err := s.judgeOf(r, id); err != nil {
		s.writeError(w, r, err)
		return
	}
	var body correctBody
	raw, err := s.readBody(w, r, &body)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	if len(body.Move) == 0 || strings.TrimSpace(body.Reason) == "" {
		s.writeError(w, r, refuse(http.StatusBadRequest, "invalid", `a correction is {"move": ..., "reason": "why"}: the judge's move and why it is made, both given`))
		return
	}
	if engine.NullMove(body.Move) {
		s.writeError(w, r, engine.RefuseNullMove())
		return
	}
	if err := numbers(nil, body.ExpectSeq); err != nil {
		s.writeError(w, r, err)
		return
	}
	sub := store.Submission{Match: id, Actor: engine.Judge, Request: -1, ExpectSeq: -1, Move: body.Move, Note: body.Reason}
	if body.ExpectSeq != nil {
		sub.ExpectSeq = *body.ExpectSeq
	}
	// A correction retried (its answer lost) with its key is not made
	// twice, as a move is not.
	if err := idempotencyKey(r, caller{role: store.JudgeRole, seat: engine.Judge}, "correct", raw, &sub); err != nil {
		s.writeError(w, r, err)
		return
	}
	// A turn whose time is up ends first, as before a judge's move.
	if err := s.playDue(r.Context(), id, sub.Move); err != nil {
		s.writeError(w, r, err)
		return
	}
	ack, err := s.ref.Submit(r.Context(), sub)
	if err != nil {
		s.writeError(w, r, unguarded(sub, err))
		return
	}
	answerMove(w, ack.Seq, ack.Repeat, ack.Answer) // as a move's answer tells it
}

// reissue gives a person's seat a new secret; the old one stops working,
// and the streams opened with it close. It may be given at any time, once
// the match has ended too: a seat's link then still shows its player the
// seat's own view and how the match went for it, which is worth a lost
// link made good (and a leaked one made useless).
func (s *Server) reissue(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	if err := s.judgeOf(r, id); err != nil {
		s.writeError(w, r, err)
		return
	}
	seat, err := strconv.Atoi(r.PathValue("seat"))
	if err != nil {
		s.writeError(w, r, refuse(http.StatusBadRequest, "invalid", "seat %q: give a seat number", r.PathValue("seat")))
		return
	}
	var person bool
	var name string
	err = s.ref.With(r.Context(), id, func(row *store.Match, live store.Live) error {
		if _, named := live.(catalog.Named); named && len(row.Setup.Players) == 0 {
			return refuse(http.StatusNotFound, "no-seat", "this match has no seats: its players join by name; give a named player a new link with POST /api/v1/matches/%s/players/NAME/reissue", id)
		}
		if seat < 0 || seat >= len(row.Setup.Players) {
			return refuse(http.StatusNotFound, "no-seat", "the match has seats 0 to %d", len(row.Setup.Players)-1)
		}
		person, name = !live.(catalog.Live).Bot(seat), row.Setup.Players[seat]
		return nil
	})
	if err == nil && !person {
		err = refuse(http.StatusConflict, "bot-seat", "seat %d is a bot's: it has no secret", seat)
	}
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	secret, hash := newSecret()
	if err := s.cfg.Store.Reissue(r.Context(), store.Secret{Hash: hash, Match: id, Role: store.SeatRole, Seat: seat}); err != nil {
		s.writeError(w, r, err)
		return
	}
	s.forget(id)
	s.revokeStreams(context.WithoutCancel(r.Context()), id)
	s.log.InfoContext(r.Context(), "seat secret reissued", "match", id, "seat", seat)
	writeJSON(w, http.StatusOK, seatLink{Seat: seat, Player: name, Secret: secret, URL: s.origin(r) + "/m/" + id + "#s=" + secret})
}

// reissuePlayer gives a named player who has joined a new secret; the
// one they had, if any, stops working: a lost link made good. As a seat's
// (reissue), at any time: once the match has ended, the link still shows
// its player the match as theirs.
func (s *Server) reissuePlayer(w http.ResponseWriter, r *http.Request) {
	id, name := r.PathValue("id"), r.PathValue("name")
	if err := s.judgeOf(r, id); err != nil {
		s.writeError(w, r, err)
		return
	}
	err := s.ref.With(r.Context(), id, func(row *store.Match, live store.Live) error {
		named, ok := live.(catalog.Named)
		switch {
		case !ok:
			return refuse(http.StatusNotFound, "no-player", "this match has no named players; a seat's link is made new with POST /api/v1/matches/%s/seats/N/reissue", id)
		case !named.Plays(name):
			return refuse(http.StatusNotFound, "no-player", "%q has not joined this match; a player's link is given at their join (issue_secret)", name)
		}
		return nil
	})
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	secret, hash := newSecret()
	if err := s.cfg.Store.Reissue(r.Context(), store.Secret{Hash: hash, Match: id, Role: store.PlayerRole, Seat: engine.Judge, Name: name}); err != nil {
		s.writeError(w, r, err)
		return
	}
	s.forget(id)
	s.revokeStreams(context.WithoutCancel(r.Context()), id)
	s.log.InfoContext(r.Context(), "player secret reissued", "match", id)
	writeJSON(w, http.StatusOK, map[string]any{"player": map[string]string{"name": name, "secret": secret, "url": s.origin(r) + "/m/" + id + "#s=" + secret}})
}

// record answers the match record, JSON Lines: to the judge at any time, to
// anyone once the match is over.
func (s *Server) record(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	c, err := s.who(r, id)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	var buf bytes.Buffer
	err = s.ref.With(r.Context(), id, func(row *store.Match, live store.Live) error {
		if row.Status == store.Running && c.role != store.JudgeRole {
			return refuse(http.StatusForbidden, "running", "the record of a match under way is the judge's; it is everyone's once the match is over")
		}
		return s.writeRecord(r.Context(), &buf, row, live.(catalog.Live))
	})
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	w.Header().Set("Content-Type", "application/x-ndjson")
	w.Header().Set("Content-Disposition", fmt.Sprintf(`attachment; filename="%s-%s.jsonl"`, "match", id))
	w.Header().Set("Cache-Control", "no-store")
	w.Write(buf.Bytes())
}

// writeRecord writes a stored match as a record that arbiter replay reads.
func (s *Server) writeRecord(ctx context.Context, w io.Writer, row *store.Match, live catalog.Live) error {
	return s.writeRecordFor(ctx, w, row, live, caller{role: store.JudgeRole})
}

// writeRecordFor writes a stored match's record as c is told of it: of a
// match under way, the moves toldMoves keeps.
func (s *Server) writeRecordFor(ctx context.Context, w io.Writer, row *store.Match, live catalog.Live, c caller) error {
	moves, err := s.cfg.Store.Moves(ctx, row.ID, 0)
	if err != nil {
		return err
	}
	if row.Status == store.Running && int64(len(moves)) > row.Seq {
		moves = moves[:row.Seq]
	}
	moves = toldMoves(c, row, live, moves)
	rec := engine.NewRecord[json.RawMessage](live.Info(), row.Setup)
	for _, mv := range moves {
		rec.Steps = append(rec.Steps, engine.Step[json.RawMessage]{Seat: mv.Actor, Move: mv.Move, Fault: mv.Fault})
		if mv.Note != "" {
			if rec.Notes == nil {
				rec.Notes = map[int]string{}
			}
			rec.Notes[len(rec.Steps)-1] = mv.Note
		}
	}
	switch row.Status {
	case store.Over:
		rec.End = &engine.End{Result: row.Result}
		if h, err := live.Hash(); err == nil && int64(len(moves)) == row.Seq {
			rec.End.Hash = h
		}
	case store.Aborted:
		rec.End = &engine.End{Aborted: "aborted by the judge"}
	}
	_, err = rec.WriteTo(w)
	return err
}

// jsonString returns the string a JSON value is, if it is one.
func jsonString(v json.RawMessage) (string, bool) {
	var s string
	if len(v) == 0 || v[0] != '"' && !unicode.IsSpace(rune(v[0])) || json.Unmarshal(v, &s) != nil {
		return "", false
	}
	return s, true
}
