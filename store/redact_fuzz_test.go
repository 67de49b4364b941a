package store

import (
	"strings"
	"testing"
)

func FuzzRedactURL(f *testing.F) {
	// A database URL is told (at start, in errors) without its password,
	// however the URL is written: with / ? # or @ in the password unescaped,
	// in its query, or not parsing at all. The password is one no other
	// part of the URL, nor the redaction's own words, holds, and it has a
	// letter that escaping never writes (past F), so that finding it in
	// the redacted URL is its leak, not a coincidence of %XX escapes.
	for _, c := range [][2]string{
		{"Alpha7Bravo8", "db.example/arbiter"},
		{"p/ss?w#rd", "db.example:5432/arbiter?sslmode=disable"},
		{"p@ss", "db.example/arbiter"},
		{"secret9", "db.example/arbiter?user=ann@server&password=secret9"},
		{"%zzbad", "db.example/x"},
		{"two words", "[::1]/x"},
	} {
		f.Add(c[0], c[1])
	}
	f.Fuzz(func(t *testing.T, pw, rest string) {
		const user = "postgres://ann:"
		if len(pw) < 4 || !strings.ContainsAny(pw, "ghijklmnopqrstuvwxyzGHIJKLMNOPQRSTUVWXYZ") || strings.Contains(user+"@"+rest+"xxxxx?…(an invalid URL)", pw) {
			return
		}
		u := user + pw + "@" + rest
		if got := redactURL(u); strings.Contains(got, pw) {
			t.Errorf("redactURL(%q) = %q: the password shows", u, got)
		}
	})
}
