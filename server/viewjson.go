package server

import (
	"encoding/json"
	"strconv"
	"time"
	"unicode/utf8"
)

// appendJSON writes the match view as JSON, the same as json.Marshal would,
// without re-reading the views and moves it carries: they are the games'
// own JSON already. Events are written this way after every move, for
// every audience.
func (v *matchView) appendJSON(b []byte) []byte {
	b = append(b, `{"id":`...)
	b = appendString(b, v.ID)
	b = append(b, `,"game":`...)
	b = appendString(b, v.Game)
	if v.Mode != "" {
		b = append(b, `,"mode":`...)
		b = appendString(b, v.Mode)
	}
	b = append(b, `,"status":`...)
	b = appendString(b, string(v.Status))
	b = append(b, `,"seq":`...)
	b = strconv.AppendInt(b, v.Seq, 10)
	if v.Clock != nil {
		b = append(b, `,"clock":`...)
		b = strconv.AppendInt(b, int64(*v.Clock), 10)
	}
	if v.ClockName != "" {
		b = append(b, `,"clock_name":`...)
		b = appendString(b, v.ClockName)
	}
	b = append(b, `,"you":{"role":`...)
	b = appendString(b, v.You.Role)
	if v.You.Seat != nil {
		b = append(b, `,"seat":`...)
		b = strconv.AppendInt(b, int64(*v.You.Seat), 10)
	}
	if v.You.Name != "" {
		b = append(b, `,"name":`...)
		b = appendString(b, v.You.Name)
	}
	if v.You.Out != "" {
		b = append(b, `,"out":`...)
		b = appendString(b, v.You.Out)
	}
	b = append(b, `},"judge":`...)
	b = strconv.AppendBool(b, v.Judge)
	b = append(b, `,"seeded":`...)
	b = strconv.AppendBool(b, v.Seeded)
	b = append(b, `,"seats":[`...)
	for i, s := range v.Seats {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"seat":`...)
		b = strconv.AppendInt(b, int64(s.Seat), 10)
		b = append(b, `,"player":`...)
		b = appendString(b, s.Player)
		b = append(b, `,"person":`...)
		b = strconv.AppendBool(b, s.Person)
		if s.Resigned {
			b = append(b, `,"resigned":true`...)
		}
		b = append(b, '}')
	}
	b = append(b, `],"view":`...)
	b = appendRaw(b, v.View)
	if v.Told != nil {
		b = append(b, `,"told":{"outcome":`...)
		b = appendRaw(b, v.Told.Outcome)
		b = append(b, `,"text":`...)
		b = appendString(b, v.Told.Text)
		b = append(b, '}')
	}
	if v.TurnOf != nil {
		b = append(b, `,"turn_of":`...)
		b = strconv.AppendInt(b, int64(*v.TurnOf), 10)
	}
	b = append(b, `,"requests":[`...)
	for i, q := range v.Requests {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"id":`...)
		b = strconv.AppendInt(b, q.ID, 10)
		b = append(b, `,"seat":`...)
		b = strconv.AppendInt(b, int64(q.Seat), 10)
		b = append(b, `,"kind":`...)
		b = appendString(b, q.Kind)
		if len(q.Choices) > 0 {
			b = append(b, `,"choices":[`...)
			for k, c := range q.Choices {
				if k > 0 {
					b = append(b, ',')
				}
				b = appendRaw(b, c)
			}
			b = append(b, ']')
		}
		b = append(b, `,"default":`...)
		b = appendRaw(b, q.Default)
		if q.Deadline != nil {
			b = append(b, `,"deadline":"`...)
			b = q.Deadline.UTC().AppendFormat(b, time.RFC3339Nano)
			b = append(b, '"')
		}
		b = append(b, '}')
	}
	b = append(b, ']')
	if v.Result != nil {
		r, _ := json.Marshal(v.Result)
		b = append(b, `,"result":`...)
		b = append(b, r...)
	}
	return append(b, '}')
}

// sizeJSON is about the length of v's JSON, no less unless its strings
// need escaping: what to make room for.
func (v *matchView) sizeJSON() int {
	n := 220 + len(v.ID) + len(v.Game) + len(v.Mode) + len(v.ClockName) + len(v.You.Name) + len(v.You.Out) + len(v.View)
	if v.Told != nil {
		n += 32 + len(v.Told.Outcome) + len(v.Told.Text)
	}
	for _, s := range v.Seats {
		n += 56 + len(s.Player)
	}
	for _, q := range v.Requests {
		n += 96 + len(q.Kind) + len(q.Default)
		for _, c := range q.Choices {
			n += len(c) + 1
		}
	}
	if v.Result != nil {
		n += 256
	}
	return n
}

// appendString writes s as a JSON string, as encoding/json does: quotes,
// backslashes and control characters escaped, invalid UTF-8 as U+FFFD.
func appendString(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			switch {
			case c == '"' || c == '\\':
				b = append(b, '\\', c)
			case c < 0x20 || c == '<' || c == '>' || c == '&':
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
			default:
				b = append(b, c)
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b = append(b, `\ufffd`...)
		case r == '\u2028' || r == '\u2029':
			b = append(b, '\\', 'u', '2', '0', '2', hex[r&0xf])
		default:
			b = append(b, s[i:i+size]...)
		}
		i += size
	}
	return append(b, '"')
}

// appendRaw writes a game's JSON as it is; none is null.
func appendRaw(b []byte, raw json.RawMessage) []byte {
	if len(raw) == 0 {
		return append(b, "null"...)
	}
	return append(b, raw...)
}
