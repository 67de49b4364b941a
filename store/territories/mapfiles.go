package territories

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	rules "github.com/arbiter-games/arbiter/games/territories"
	"github.com/arbiter-games/arbiter/games/territories/mapdraw"
	"github.com/arbiter-games/arbiter/internal/filelock"
)

// Map returns the game's map, parsed.
func (r *Referee) Map() (*mapdraw.Map, error) { return r.drawing() }

func (r *Referee) drawing() (*mapdraw.Map, error) {
	r.mapOnce.Do(func() { r.mapDraw, r.mapErr = mapdraw.Parse(r.mapSVG, r.cfg) })
	return r.mapDraw, r.mapErr
}

// MapFiles returns where the map is redrawn after every action, by the
// configuration's output (relative to the database's directory; beside the
// database, named after it, when not given); "" for a file not drawn.
func (r *Referee) MapFiles() (svg, png string) { return MapFilesOf(r.path, r.cfg) }

// MapFilesOf returns where the map of a game at db on cfg is redrawn (see
// Referee.MapFiles), before the game is made.
func MapFilesOf(db string, cfg *rules.Config) (svg, png string) {
	base := strings.TrimSuffix(db, filepath.Ext(db))
	where := func(p, ext string) string {
		switch {
		case p == "none":
			return ""
		case p == "":
			return base + ext
		case filepath.IsAbs(p):
			return p
		}
		return filepath.Join(filepath.Dir(db), p)
	}
	return where(cfg.Output.SVG, ".svg"), where(cfg.Output.PNG, ".png")
}

// ErrMapFiles is returned by Create, UpdateMap and WriteMap for a map
// file that is the game's database or one of SQLite's files beside it
// (-wal, -shm, -journal), which drawing it would replace, or for one
// file named for both the SVG and the PNG.
var ErrMapFiles = errors.New("map files")

// overGame refuses a map file that is the database at db or one of its
// companion files: by name, or by being the same file (a link).
func overGame(db, file string) error {
	if file == "" {
		return nil
	}
	fileAbs, err1 := filepath.Abs(file)
	dbAbs, err2 := filepath.Abs(db)
	over := err1 == nil && err2 == nil && slices.Contains([]string{dbAbs, dbAbs + "-wal", dbAbs + "-shm", dbAbs + "-journal"}, fileAbs)
	if !over {
		a, errA := os.Stat(file)
		b, errB := os.Stat(db)
		over = errA == nil && errB == nil && os.SameFile(a, b)
	}
	if over {
		return fmt.Errorf("%w: %s is the game's database %s or its journal, which drawing the map would replace; draw the map into another file", ErrMapFiles, file, db)
	}
	return nil
}

// checkMapFiles refuses map files of cfg for the game at db that would
// replace the database, or that are one file for both the SVG and the
// PNG.
func checkMapFiles(db string, cfg *rules.Config) error {
	svg, png := MapFilesOf(db, cfg)
	for _, f := range []struct{ path, key, ext string }{{svg, "svg", ".svg"}, {png, "png", ".png"}} {
		if err := overGame(db, f.path); err != nil {
			return fmt.Errorf("%w (the configuration's output: {%s: ...} names it, or, left out, the database's name with %s)", err, f.key, f.ext)
		}
	}
	if svg != "" && svg == png {
		return fmt.Errorf("%w: output: svg and png are the same file, %s; give each its own", ErrMapFiles, svg)
	}
	return nil
}

// UpdateMap redraws the map files (MapFiles) if they do not show the last
// action yet: whenever the map is older than the log, or a file is
// missing, whoever calls next redraws it, so that a process killed between
// its commit and its drawing leaves a stale map only until the next call.
// The files are written whole, under temporary names in their
// directories, and renamed into place while holding the database's write
// lock, and only if no later action has been committed meanwhile: of two
// processes drawing at once, the later state always wins (the process that
// committed it draws it). Temporary files that a killed process left are
// removed (see cleanTemps). force draws even when the files seem current.
func (r *Referee) UpdateMap(ctx context.Context, force bool) error {
	return explain(r.path, r.updateMap(ctx, force))
}

func (r *Referee) updateMap(ctx context.Context, force bool) error {
	svgPath, pngPath := r.MapFiles()
	if svgPath == "" && pngPath == "" {
		return nil
	}
	if err := checkMapFiles(r.path, r.cfg); err != nil {
		return err
	}
	var seq, drawn int
	if err := r.read.QueryRowContext(ctx, mapSeqSQL, r.id).Scan(&seq, &drawn); err != nil {
		return fmt.Errorf("%s: reading the game's state: %w", r.path, err)
	}
	if drawn >= seq && !force && exists(svgPath) && exists(pngPath) {
		return nil
	}
	w, err := r.World(ctx)
	if err != nil {
		return err
	}
	seq = w.Seq()
	files, err := r.render(w, svgPath, pngPath)
	defer discard(files)
	if err != nil {
		return err
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.retry(ctx, func() error {
		return inTx(ctx, r.db, func(tx *sql.Tx) error {
			var now, done int
			if err := tx.QueryRowContext(ctx, mapSeqSQL, r.id).Scan(&now, &done); err != nil {
				return err
			}
			if now != seq || (done >= seq && !force && exists(svgPath) && exists(pngPath)) {
				return nil // a later action's caller draws it, or someone drew it
			}
			for i := range files {
				if err := files[i].place(); err != nil {
					return err
				}
			}
			_, err := tx.ExecContext(ctx, `UPDATE territories_states SET map_seq = $1 WHERE match_id = $2`, seq, r.id)
			return err
		})
	})
}

// mapSeqSQL reads the action the game is at and the one its map files
// show.
const mapSeqSQL = `SELECT m.seq, g.map_seq FROM matches m JOIN territories_states g ON g.match_id = m.id WHERE m.id = $1`

// mapFile is a map drawn into a temporary file, to be renamed to path.
type mapFile struct {
	path string
	tmp  *os.File // open, and locked, until discarded
	done bool     // renamed into place
}

// place renames the temporary file into place.
func (f *mapFile) place() error {
	if f.done {
		return nil
	}
	if err := os.Rename(f.tmp.Name(), f.path); err != nil {
		return fmt.Errorf("map: %w", err)
	}
	f.done = true
	return nil
}

// discard removes the temporary files not renamed into place, and closes
// them all, which releases their locks.
func discard(files []mapFile) {
	for _, f := range files {
		if !f.done {
			os.Remove(f.tmp.Name())
		}
		f.tmp.Close()
	}
}

// render writes the map of w to temporary files beside svgPath and pngPath
// (either may be ""), after removing the stale ones (cleanTemps).
func (r *Referee) render(w *rules.World, svgPath, pngPath string) ([]mapFile, error) {
	m, err := r.drawing()
	if err != nil {
		return nil, err
	}
	var files []mapFile
	svg := m.SVG(w)
	if svgPath != "" {
		cleanTemps(svgPath)
		tmp, err := writeTemp(svgPath, svg)
		if err != nil {
			return files, err
		}
		files = append(files, mapFile{path: svgPath, tmp: tmp})
	}
	if pngPath != "" {
		png, err := m.PNGOf(svg)
		if err != nil {
			return files, err
		}
		cleanTemps(pngPath)
		tmp, err := writeTemp(pngPath, png)
		if err != nil {
			return files, err
		}
		files = append(files, mapFile{path: pngPath, tmp: tmp})
	}
	return files, nil
}

// WriteMap draws the game now into path: an SVG, or a PNG when path ends
// in .png. The file is written whole or not at all.
func (r *Referee) WriteMap(ctx context.Context, path string) error {
	w, err := r.World(ctx)
	if err != nil {
		return err
	}
	var svgPath, pngPath string
	switch strings.ToLower(filepath.Ext(path)) {
	case ".png":
		pngPath = path
	case ".svg":
		svgPath = path
	default:
		return fmt.Errorf("map %s: name a .svg or a .png file", path)
	}
	if err := overGame(r.path, path); err != nil {
		return err
	}
	files, err := r.render(w, svgPath, pngPath)
	defer discard(files)
	if err != nil {
		return err
	}
	return files[0].place()
}

// tempPattern is the name of path's temporary files, for os.CreateTemp:
// hidden, beside it, ending in .tmp.
func tempPattern(path string) string { return "." + filepath.Base(path) + ".*.tmp" }

// writeTemp writes data to a new temporary file beside path and returns
// it, open and locked (package filelock) for as long as it lives: the lock tells
// cleanTemps that a live process owns it, and the system releases it when
// the process ends, however it ends.
func writeTemp(path string, data []byte) (*os.File, error) {
	f, err := lockedTemp(path)
	if err != nil {
		return nil, err
	}
	fail := func(err error) (*os.File, error) {
		os.Remove(f.Name())
		f.Close()
		return nil, fmt.Errorf("map: writing %s: %w", path, err)
	}
	if _, err := f.Write(data); err != nil {
		return fail(err)
	}
	if err := f.Chmod(0o644); err != nil {
		return fail(err)
	}
	return f, nil
}

// lockedTemp creates a temporary file beside path and locks it. A
// cleanTemps may take the new file for a dead process's between its
// creation and the lock, and remove it: then another is made.
func lockedTemp(path string) (*os.File, error) {
	for {
		f, err := os.CreateTemp(filepath.Dir(path), tempPattern(path))
		if err != nil {
			return nil, fmt.Errorf("map: %w", err)
		}
		if err := filelock.Lock(f); err != nil {
			os.Remove(f.Name())
			f.Close()
			return nil, fmt.Errorf("map: locking %s: %w", f.Name(), err)
		}
		held, err1 := f.Stat()
		named, err2 := os.Stat(f.Name())
		if err1 == nil && err2 == nil && os.SameFile(held, named) {
			return f, nil
		}
		f.Close()
	}
}

// cleanTemps removes path's temporary files that no live process owns:
// those left by a process killed while drawing. An owner holds its file's
// lock, so a file whose lock is free is stale.
func cleanTemps(path string) {
	stale, err := filepath.Glob(filepath.Join(filepath.Dir(path), globEscape(tempPattern(path))))
	if err != nil {
		return
	}
	for _, name := range stale {
		f, err := os.Open(name)
		if err != nil {
			continue
		}
		if filelock.TryLock(f) == nil {
			os.Remove(name)
		}
		f.Close()
	}
}

// globEscape escapes the characters filepath.Match reads, except the one
// star of a temporary file's pattern.
func globEscape(pattern string) string {
	var b strings.Builder
	star := strings.LastIndexByte(pattern, '*')
	for i, c := range pattern {
		if i != star && strings.ContainsRune(`*?[\`, c) {
			b.WriteByte('\\')
		}
		b.WriteRune(c)
	}
	return b.String()
}

func exists(path string) bool {
	if path == "" {
		return true
	}
	_, err := os.Stat(path)
	return !errors.Is(err, fs.ErrNotExist)
}

// retry runs fn until it does not find the database busy, within
// Options.Patience.
func (r *Referee) retry(ctx context.Context, fn func() error) error {
	return retryBusy(ctx, r.o, r.path, fn)
}

// mapState is the parsed map, made once.
type mapState struct {
	mapOnce sync.Once
	mapDraw *mapdraw.Map
	mapErr  error
}
