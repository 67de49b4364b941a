package engine

import (
	"net/url"
	"path"
	"strings"
)

// DisplayName is how a player is shown to other seats and to people at a
// board: a built-in bot by its name; a program by the name of its file
// (exec:bot.py); a remote bot by its host (http://host:8080). Never a
// command line, a path or a URL's path, which may say more than a name.
func DisplayName(name string) string {
	switch {
	case strings.HasPrefix(name, "exec:"):
		return "exec:" + programName(strings.TrimPrefix(name, "exec:"))
	case strings.HasPrefix(name, "http://"), strings.HasPrefix(name, "https://"):
		u, err := url.Parse(name)
		if err != nil || u.Host == "" {
			return "http bot"
		}
		return u.Scheme + "://" + u.Host
	}
	return name
}

// programName guesses the name of a command's program: the first word when
// it is a path (./mybot), else the first later word that names a file (the
// script of python3 bot.py), else the first word; without its directory.
func programName(command string) string {
	words := strings.Fields(command)
	if len(words) == 0 {
		return "program"
	}
	pick := words[0]
	if !strings.Contains(pick, "/") {
		for _, w := range words[1:] {
			if !strings.HasPrefix(w, "-") && strings.ContainsAny(w, "/.") {
				pick = w
				break
			}
		}
	}
	pick = strings.Trim(pick, `"'`)
	if base := path.Base(pick); base != "." && base != "/" && base != "" {
		return base
	}
	return "program"
}

// Renamer is implemented by what a spectator sees (Publisher.Public) when
// it names the seats' players, as a TNCC board does. Renamed returns the
// same view with the seats' players named players instead: reports call a
// program by the name it gave itself (its ready), as the setup cannot.
type Renamer interface {
	Renamed(players []string) any
}
