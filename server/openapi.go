package server

import (
	"net/http"
	"strconv"
	"strings"
)

// operation is one call of the API: the routes are made from this table,
// and the OpenAPI document too, so the two cannot disagree.
type operation struct {
	method, path, id string
	summary          string
	// who may call: anyone, seat, judge, seat or judge, creator.
	who     string
	handle  func(*Server) http.HandlerFunc
	body    string // the request body's schema, if any
	answer  string // the success's schema
	success int
	refuses []int
}

var operations = []operation{
	{method: "GET", path: "/api/v1/games", id: "listGames", summary: "Every game: name, title, seats, options with defaults, built-in players, live modes",
		who: "anyone", handle: func(s *Server) http.HandlerFunc { return s.games }, answer: "Games", success: 200},
	{method: "GET", path: "/api/v1/openapi.json", id: "openAPI", summary: "This document", who: "anyone",
		handle: func(s *Server) http.HandlerFunc { return s.openAPI }, answer: "Object", success: 200},
	{method: "POST", path: "/api/v1/matches", id: "createMatch", summary: "Create a match; answers the secrets of its people and judge, once",
		who: "creator", handle: func(s *Server) http.HandlerFunc { return s.create }, body: "Create", answer: "Created", success: 201,
		refuses: []int{400, 403, 408, 413, 429, 503}},
	{method: "GET", path: "/api/v1/matches", id: "listMatches", summary: "The listed matches, newest first, by pages (?before=, ?limit=)",
		who: "anyone", handle: func(s *Server) http.HandlerFunc { return s.list }, answer: "MatchList", success: 200, refuses: []int{400, 503}},
	{method: "GET", path: "/api/v1/matches/{id}", id: "getMatch", summary: "The match as the caller sees it, and the requests it owes now",
		who: "anyone", handle: func(s *Server) http.HandlerFunc { return s.show }, answer: "Match", success: 200, refuses: []int{401, 403, 404, 409, 503}},
	{method: "POST", path: "/api/v1/matches/{id}/moves", id: "sendMove", summary: "Send a move: a seat's answer to one of its requests, or a judge's move; answered once it is stored",
		who: "seat or judge", handle: func(s *Server) http.HandlerFunc { return s.move }, body: "Move", answer: "Seq", success: 200,
		refuses: []int{400, 401, 403, 404, 408, 409, 413, 422, 429, 503}},
	{method: "GET", path: "/api/v1/matches/{id}/events", id: "followMatch", summary: "Server-Sent Events: the match as the caller sees it after every move; Last-Event-ID or ?after=SEQ resumes",
		who: "anyone", handle: func(s *Server) http.HandlerFunc { return s.events }, answer: "EventStream", success: 200, refuses: []int{400, 401, 403, 404, 429, 503}},
	{method: "GET", path: "/api/v1/matches/{id}/record", id: "getRecord", summary: "The match record (JSON Lines): the judge's at any time, everyone's once the match is over",
		who: "anyone", handle: func(s *Server) http.HandlerFunc { return s.record }, answer: "Record", success: 200, refuses: []int{401, 403, 404, 503}},
	{method: "POST", path: "/api/v1/matches/{id}/resign", id: "resign", summary: "The seat leaves; its requests get their defaults from then on",
		who: "seat", handle: func(s *Server) http.HandlerFunc { return s.resign }, answer: "Object", success: 200, refuses: []int{401, 403, 404, 409, 503}},
	{method: "POST", path: "/api/v1/matches/{id}/abort", id: "abort", summary: "End the match now",
		who: "judge", handle: func(s *Server) http.HandlerFunc { return s.abort }, answer: "Object", success: 200, refuses: []int{401, 403, 404, 409, 503}},
	{method: "POST", path: "/api/v1/matches/{id}/defaults", id: "playDefaults", summary: "Play the default of every open request (the judge ends a turn)",
		who: "judge", handle: func(s *Server) http.HandlerFunc { return s.defaults }, body: "Defaults", answer: "Object", success: 200, refuses: []int{400, 401, 403, 404, 408, 409, 413, 503}},
	{method: "POST", path: "/api/v1/matches/{id}/correct", id: "correct", summary: "Append a correction: a judge's move with its reason (the log is never rewritten)",
		who: "judge", handle: func(s *Server) http.HandlerFunc { return s.correct }, body: "Correction", answer: "Seq", success: 200,
		refuses: []int{400, 401, 403, 404, 408, 409, 413, 422, 503}},
	{method: "POST", path: "/api/v1/matches/{id}/seats/{seat}/reissue", id: "reissue", summary: "A new secret for a person's seat; the old one stops working",
		who: "judge", handle: func(s *Server) http.HandlerFunc { return s.reissue }, answer: "Seat", success: 200, refuses: []int{400, 401, 403, 404, 409, 503}},
	{method: "POST", path: "/api/v1/matches/{id}/players/{name}/reissue", id: "reissuePlayer", summary: "A new secret for a named player of a territories referee match (one who has joined); their old one, if any, stops working",
		who: "judge", handle: func(s *Server) http.HandlerFunc { return s.reissuePlayer }, answer: "Player", success: 200, refuses: []int{401, 403, 404, 409, 503}},
	{method: "GET", path: "/api/v1/matches/{id}/replay", id: "viewMatch", summary: "The match step by step through one viewpoint (?view=judge|public|seat:N, ?frames=0): the steps it sees, its views, the measures and events; the judge's at any time, a seat's own and the public one while the match runs, every one once it is over",
		who: "anyone", handle: func(s *Server) http.HandlerFunc { return s.replayMatch }, answer: "Viewer", success: 200, refuses: []int{400, 401, 403, 404, 409, 503}},
	{method: "POST", path: "/api/v1/replay", id: "viewRecord", summary: "A match record (the body, JSON Lines) step by step through one viewpoint (?view=, ?frames=0), as GET /matches/{id}/replay answers",
		who: "anyone", handle: func(s *Server) http.HandlerFunc { return s.replayRecord }, body: "Record", answer: "Viewer", success: 200, refuses: []int{400, 403, 408, 413, 422, 429, 503}},
	{method: "GET", path: "/api/v1/matches/{id}/map.svg", id: "getMap", summary: "The map the match's board is drawn on (SVG: a path per territory, its id the territory's)",
		who: "anyone", handle: func(s *Server) http.HandlerFunc { return s.gameMap }, answer: "Map", success: 200, refuses: []int{401, 403, 404, 503}},
	{method: "GET", path: "/api/v1/matches/{id}/board.svg", id: "drawBoard", summary: "The board as it stands, drawn on its map: each held territory in its nation's colour, the armies, the nations (SVG)",
		who: "anyone", handle: func(s *Server) http.HandlerFunc { return s.board(false) }, answer: "Map", success: 200, refuses: []int{401, 403, 404, 503}},
	{method: "GET", path: "/api/v1/matches/{id}/board.png", id: "drawBoardPNG", summary: "The board as it stands, drawn on its map, as a PNG image",
		who: "anyone", handle: func(s *Server) http.HandlerFunc { return s.board(true) }, answer: "Picture", success: 200, refuses: []int{401, 403, 404, 503}},
}

var statusText = map[int]string{
	400: "invalid input: the message says what is wrong and what is allowed",
	401: "no secret, or a secret this server does not know",
	403: "a secret of another seat, another match, or a role that may not do this",
	404: "no such match (or seat)",
	408: "the body did not arrive whole in time (30 s)",
	409: "the request is no longer open, the match moved past expect_seq, is over, or its rules version is gone",
	413: "the body is too large",
	421: "the request came to a server on this machine's loopback address under a name that is not this machine's (localhost, 127.0.0.1, [::1], its host name) nor --public-url's host: a DNS-rebinding page's, refused on every call",
	422: "the rules refuse the move (the match is unchanged), or an Idempotency-Key reused with another request",
	429: "too many requests: a rate limit",
	503: "the server's database cannot be reached or written for now (unavailable), or it holds its most of records sent to be viewed (too-many-uploads): Retry-After says when to send the call again; or the server is shutting down, or has too many streams",
}

// openAPISpec is the OpenAPI 3.1 document of the API.
func openAPISpec() map[string]any {
	paths := map[string]any{}
	for _, op := range operations {
		item, _ := paths[op.path].(map[string]any)
		if item == nil {
			item = map[string]any{}
			paths[op.path] = item
		}
		responses := map[string]any{
			strconv.Itoa(op.success): map[string]any{"description": "done", "content": content(op.answer)},
		}
		for _, code := range append(op.refuses[:len(op.refuses):len(op.refuses)], http.StatusMisdirectedRequest) { // every call, on a loopback address
			responses[strconv.Itoa(code)] = map[string]any{"description": statusText[code], "content": content("Error")}
		}
		o := map[string]any{"operationId": op.id, "summary": op.summary, "description": "Who: " + op.who + ".", "responses": responses}
		var params []any
		for _, name := range []string{"id", "seat"} {
			if strings.Contains(op.path, "{"+name+"}") {
				params = append(params, map[string]any{"name": name, "in": "path", "required": true, "schema": map[string]any{"type": "string"}})
			}
		}
		if op.id == "sendMove" || op.id == "correct" {
			params = append(params, map[string]any{"name": "Idempotency-Key", "in": "header", "schema": map[string]any{"type": "string", "maxLength": 200},
				"description": "a retry with the same key answers the first answer and never applies twice"})
		}
		if op.id == "followMatch" {
			params = append(params, map[string]any{"name": "after", "in": "query", "schema": map[string]any{"type": "integer", "minimum": 0}},
				map[string]any{"name": "Last-Event-ID", "in": "header", "schema": map[string]any{"type": "integer", "minimum": 0}})
		}
		if params != nil {
			o["parameters"] = params
		}
		if op.who != "anyone" {
			o["security"] = []any{map[string]any{"secret": []any{}}}
		}
		if op.body != "" {
			o["requestBody"] = map[string]any{"required": op.id != "playDefaults", "content": content(op.body)}
		}
		item[strings.ToLower(op.method)] = o
	}
	return map[string]any{
		"openapi": "3.1.0",
		"info": map[string]any{"title": "Arbiter live matches", "version": "1",
			"description": "Live matches of every game Arbiter hosts. Secrets travel as Authorization: Bearer SECRET; without one, the caller sees the public view. See docs/api.md."},
		"paths": paths,
		"components": map[string]any{
			"securitySchemes": map[string]any{"secret": map[string]any{"type": "http", "scheme": "bearer"}},
			"schemas":         schemas,
		},
	}
}

func content(schema string) map[string]any {
	mime := "application/json"
	switch schema {
	case "EventStream":
		mime = "text/event-stream"
	case "Record":
		mime = "application/x-ndjson"
	case "Map":
		mime = "image/svg+xml"
	case "Picture":
		mime = "image/png"
	}
	return map[string]any{mime: map[string]any{"schema": map[string]any{"$ref": "#/components/schemas/" + schema}}}
}

func obj(required []string, props map[string]any) map[string]any {
	o := map[string]any{"type": "object", "properties": props}
	if required != nil {
		o["required"] = required
	}
	return o
}

// toldJSON is what a public move did (catalog.Told): a match's "told", a
// replay step's.
var toldJSON = map[string]any{"type": "object", "description": "what the last move did, in a game whose moves are public (territories): its outcome and its words",
	"properties": map[string]any{"outcome": anyJSON, "text": str}}

var (
	str     = map[string]any{"type": "string"}
	integer = map[string]any{"type": "integer"}
	boolean = map[string]any{"type": "boolean"}
	anyJSON = map[string]any{}
	ref     = func(name string) map[string]any { return map[string]any{"$ref": "#/components/schemas/" + name} }
	array   = func(items map[string]any) map[string]any { return map[string]any{"type": "array", "items": items} }
)

var schemas = map[string]any{
	"Object": map[string]any{"type": "object"},
	"Error":  obj([]string{"error"}, map[string]any{"error": obj([]string{"code", "message"}, map[string]any{"code": str, "message": str})}),
	"Games": array(obj(nil, map[string]any{"name": str, "title": str, "seats": obj(nil, map[string]any{"min": integer, "max": integer}),
		"options": array(obj(nil, map[string]any{"name": str, "kind": str, "default": str, "usage": str, "min": integer, "max": integer})),
		"players": array(str), "default_players": array(str), "presets": array(str), "rules": str,
		"modes": array(obj(nil, map[string]any{"name": str, "about": str, "for": str, "judge": boolean}))})),
	"Create": obj([]string{"game", "seats"}, map[string]any{"game": str, "mode": str,
		"seats":   array(obj([]string{"player"}, map[string]any{"player": map[string]any{"type": "string", "description": `a built-in bot, "person", or the URL of a bot`}})),
		"options": map[string]any{"type": "object"}, "seed": integer, "judge": boolean, "private": boolean,
		"time": obj(nil, map[string]any{"decision_ms": integer, "reply_ms": integer, "people_ms": integer, "bank_ms": integer,
			"on_timeout": map[string]any{"enum": []string{"default", "forfeit"}}})}),
	"Seat":   obj(nil, map[string]any{"seat": integer, "player": str, "secret": str, "url": str}),
	"Player": obj(nil, map[string]any{"player": obj(nil, map[string]any{"name": str, "secret": str, "url": str})}),
	"Created": obj([]string{"id", "seats", "watch_url", "warnings"}, map[string]any{"id": str, "seats": array(ref("Seat")),
		"judge": obj(nil, map[string]any{"secret": str, "url": str}), "watch_url": str,
		"warnings": map[string]any{"type": "array", "items": str, "description": "what the options allow but a game is unlikely to want, one sentence each, named by its option"}}),
	"Request": obj(nil, map[string]any{"id": integer, "seat": integer, "kind": str, "choices": array(anyJSON), "default": anyJSON,
		"deadline": map[string]any{"type": "string", "format": "date-time"}}),
	"Match": obj(nil, map[string]any{"id": str, "game": str, "mode": str, "status": map[string]any{"enum": []string{"running", "over", "aborted"}},
		"seq": integer, "clock": integer, "clock_name": str, "you": obj(nil, map[string]any{"role": str, "seat": integer, "name": str, "out": str}), "judge": boolean, "seeded": boolean,
		"seats": array(obj(nil, map[string]any{"seat": integer, "player": str, "person": boolean, "resigned": boolean})),
		"view":  anyJSON, "turn_of": map[string]any{"type": "integer", "description": "the seat whose turn it is, in the games played one seat at a time (TNCC, territories), while the match runs"},
		"told":     toldJSON,
		"requests": array(ref("Request")), "result": anyJSON}),
	"MatchList": obj(nil, map[string]any{"matches": array(obj(nil, map[string]any{"id": str, "game": str, "mode": str, "status": str,
		"seq":     map[string]any{"type": []string{"integer", "null"}, "description": "null for a match under way that the server cannot load"},
		"created": str, "seats": array(str), "people": integer})), "next_before": str}),
	"Move":       obj([]string{"move"}, map[string]any{"request": integer, "move": anyJSON, "expect_seq": integer}),
	"Defaults":   obj(nil, map[string]any{"expect_seq": integer}),
	"Correction": obj([]string{"move", "reason"}, map[string]any{"move": anyJSON, "reason": str, "expect_seq": integer}),
	"Seq": obj([]string{"seq"}, map[string]any{"seq": integer, "repeat": boolean,
		"outcome": map[string]any{"description": "what the move did, where its game tells it (a territories action: an attack's roll and losses)"},
		"player":  obj(nil, map[string]any{"name": str, "secret": str, "url": str})}),
	"EventStream": map[string]any{"type": "string", "description": "events move (data: a Match), end, shutdown, lost, revoked (the secret it was opened with was replaced); each move's id is its seq"},
	"Record":      map[string]any{"type": "string", "description": "the match record, as arbiter replay reads it"},
	"Viewer":      viewerJSON,
	"Map":         map[string]any{"type": "string", "description": "an SVG image"},
	"Picture":     map[string]any{"type": "string", "format": "binary", "description": "a PNG image"},
}

// spec is the document, made once from the table.
var spec map[string]any

func init() { spec = openAPISpec() }

func (s *Server) openAPI(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, spec)
}
