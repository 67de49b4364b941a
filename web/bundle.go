package web

import (
	"bytes"
	"compress/gzip"
	"encoding/base64"
	"fmt"
	"io"
	"io/fs"
	"path"
	"regexp"
	"sort"
	"strings"
)

// The replay viewer as one self-contained file (arbiter replay --html): its
// ES modules joined into one script, each module a function whose exports
// are the fields of the object it returns, its imports taken from the
// modules before it; the stylesheet inline; the viewer's data in the page.
// The pages' modules are written to be joined so: static imports of
// relative paths, one to a line, and exports by declaration.

var (
	importLine = regexp.MustCompile(`(?m)^import\s+(.+?)\s+from\s+"(\.{1,2}/[^"]+)";[ \t]*$`)
	exportDecl = regexp.MustCompile(`(?m)^export\s+((?:async\s+)?function\*?|const|let|class)\s+([A-Za-z_$][\w$]*)`)
	anyImport  = regexp.MustCompile(`(?m)^\s*(import|export)\b`)
)

// gamesModule stands for js/games.js in a bundle: every game, imported
// statically, since a file cannot import by name at run time.
func gamesModule() (string, error) {
	names, err := fs.Glob(files(), "js/games/*.js")
	if err != nil {
		return "", err
	}
	sort.Strings(names)
	var b strings.Builder
	var list []string
	for _, n := range names {
		g := strings.TrimSuffix(path.Base(n), ".js")
		fmt.Fprintf(&b, "import * as %s from \"./games/%s.js\";\n", g, g)
		list = append(list, g)
	}
	fmt.Fprintf(&b, "export async function loadGame(name) {\n  return { %s }[name];\n}\n", strings.Join(list, ", "))
	return b.String(), nil
}

// bundle joins the module entry and everything it imports into one
// script.
func bundle(entry string) (string, error) {
	var order []string
	src := map[string]string{}
	state := map[string]int{} // 1 visiting, 2 done
	var visit func(p string) error
	visit = func(p string) error {
		switch state[p] {
		case 1:
			return fmt.Errorf("bundle: %s imports itself in a cycle", p)
		case 2:
			return nil
		}
		state[p] = 1
		var text string
		if p == "js/games.js" {
			t, err := gamesModule()
			if err != nil {
				return err
			}
			text = t
		} else {
			b, err := fs.ReadFile(files(), p)
			if err != nil {
				return fmt.Errorf("bundle: %w", err)
			}
			text = string(b)
		}
		src[p] = text
		for _, m := range importLine.FindAllStringSubmatch(text, -1) {
			if err := visit(path.Join(path.Dir(p), m[2])); err != nil {
				return err
			}
		}
		state[p] = 2
		order = append(order, p)
		return nil
	}
	if err := visit(entry); err != nil {
		return "", err
	}
	var out strings.Builder
	out.WriteString("(() => {\n\"use strict\";\nconst __modules = {};\n")
	for _, p := range order {
		body, err := module(p, src[p])
		if err != nil {
			return "", err
		}
		out.WriteString(body)
	}
	out.WriteString("})();\n")
	return out.String(), nil
}

// module turns one ES module into a function of the bundle.
func module(p, text string) (string, error) {
	var exports []string
	text = importLine.ReplaceAllStringFunc(text, func(line string) string {
		m := importLine.FindStringSubmatch(line)
		from := fmt.Sprintf("__modules[%q]", path.Join(path.Dir(p), m[2]))
		what := strings.TrimSpace(m[1])
		if strings.HasPrefix(what, "* as ") {
			return fmt.Sprintf("const %s = %s;", strings.TrimSpace(what[5:]), from)
		}
		if strings.HasPrefix(what, "{") {
			return fmt.Sprintf("const %s = %s;", strings.ReplaceAll(what, " as ", ": "), from)
		}
		return "const " + what + " = " + from + ".default;"
	})
	text = exportDecl.ReplaceAllStringFunc(text, func(decl string) string {
		m := exportDecl.FindStringSubmatch(decl)
		exports = append(exports, m[2])
		return m[1] + " " + m[2]
	})
	if loc := anyImport.FindStringIndex(text); loc != nil {
		line := strings.Count(text[:loc[0]], "\n") + 1
		return "", fmt.Errorf("bundle: %s line %d: an import or export this bundler does not join (imports one to a line from relative paths, exports by declaration)", p, line)
	}
	return fmt.Sprintf("__modules[%q] = (() => {\n%s\nreturn { %s };\n})();\n", p, text, strings.Join(exports, ", ")), nil
}

// WriteReplay writes the replay viewer as one self-contained page: nothing
// is fetched, so it opens from a file, anywhere. data is what the viewer
// shows (catalog.Viewer, as JSON), with every viewpoint's views in it; the
// page holds it gzipped.
func WriteReplay(w io.Writer, title string, data []byte) error {
	page, err := fs.ReadFile(files(), "replay.html")
	if err != nil {
		return err
	}
	css, err := fs.ReadFile(files(), "style.css")
	if err != nil {
		return err
	}
	icon, err := fs.ReadFile(files(), "favicon.svg")
	if err != nil {
		return err
	}
	js, err := bundle("js/replay.js")
	if err != nil {
		return err
	}
	// The data, gzipped and in base64: a long match's views repeat
	// themselves, and the page unzips them (DecompressionStream).
	var z bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&z, gzip.DefaultCompression)
	if _, err := zw.Write(data); err != nil {
		return err
	}
	if err := zw.Close(); err != nil {
		return err
	}
	packed := base64.StdEncoding.EncodeToString(z.Bytes())
	html := string(page)
	cut := func(old, new string) error {
		if !strings.Contains(html, old) {
			return fmt.Errorf("replay.html has no %q", old)
		}
		html = strings.Replace(html, old, new, 1)
		return nil
	}
	esc := strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;")
	for _, c := range [][2]string{
		{`<title>Replay — Arbiter</title>`, "<title>" + esc.Replace(title) + " — Arbiter</title>"},
		{`<link rel="stylesheet" href="/assets/style.css">`, "<style>\n" + string(css) + "</style>"},
		{`<link rel="icon" href="/assets/favicon.svg" type="image/svg+xml">`, `<link rel="icon" href="data:image/svg+xml;base64,` + base64.StdEncoding.EncodeToString(icon) + `" type="image/svg+xml">`},
		{`<script type="module" src="/assets/js/replay.js"></script>`, ""},
		{`</body>`, `<script type="application/octet-stream" id="replay-data-gz">` + packed + "</script>\n<script>\n" + scriptSafe(js) + "</script>\n</body>"},
		{`<a href="/">Games and new matches</a>`, ""},
		{`<a class="home" href="/">Arbiter</a>`, `<span class="home">Arbiter</span>`},
	} {
		if err := cut(c[0], c[1]); err != nil {
			return err
		}
	}
	_, err = io.WriteString(w, html)
	return err
}

// scriptSafe keeps a script's text from closing its element.
func scriptSafe(js string) string {
	return strings.NewReplacer("</script", `<\/script`, "</SCRIPT", `<\/SCRIPT`, "<!--", `<\!--`).Replace(js)
}
