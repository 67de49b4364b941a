package territories

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	rules "github.com/arbiter-games/arbiter/games/territories"
	"github.com/arbiter-games/arbiter/games/territories/mapdraw"
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
func (r *Referee) MapFiles() (svg, png string) {
	base := strings.TrimSuffix(r.path, filepath.Ext(r.path))
	where := func(p, ext string) string {
		switch {
		case p == "none":
			return ""
		case p == "":
			return base + ext
		case filepath.IsAbs(p):
			return p
		}
		return filepath.Join(filepath.Dir(r.path), p)
	}
	return where(r.cfg.Output.SVG, ".svg"), where(r.cfg.Output.PNG, ".png")
}

// UpdateMap redraws the map files (MapFiles) if they do not show the last
// action yet. The files are written whole, under temporary names in their
// directories, and renamed into place while holding the database's write
// lock, and only if no later action has been committed meanwhile: of two
// processes drawing at once, the later state always wins (the process that
// committed it draws it). force draws even when the files seem current.
func (r *Referee) UpdateMap(ctx context.Context, force bool) error {
	svgPath, pngPath := r.MapFiles()
	if svgPath == "" && pngPath == "" {
		return nil
	}
	var seq, drawn int
	var world string
	if err := r.db.QueryRowContext(ctx, `SELECT seq, world, map_seq FROM state WHERE id = 1`).Scan(&seq, &world, &drawn); err != nil {
		return fmt.Errorf("%s: reading the game's state: %w", r.path, err)
	}
	if drawn >= seq && !force && exists(svgPath) && exists(pngPath) {
		return nil
	}
	w, err := rules.LoadWorld(r.cfg, []byte(world))
	if err != nil {
		return err
	}
	files, err := r.render(w, svgPath, pngPath)
	defer func() {
		for _, f := range files {
			os.Remove(f.tmp)
		}
	}()
	if err != nil {
		return err
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.retry(ctx, func() error {
		tx, err := r.db.BeginTx(ctx, nil)
		if err != nil {
			return err
		}
		defer tx.Rollback()
		var now, done int
		if err := tx.QueryRowContext(ctx, `SELECT seq, map_seq FROM state WHERE id = 1`).Scan(&now, &done); err != nil {
			return err
		}
		if now != seq || (done >= seq && !force && exists(svgPath) && exists(pngPath)) {
			return nil // a later action's caller draws it, or someone drew it
		}
		for _, f := range files {
			if err := os.Rename(f.tmp, f.path); err != nil {
				return fmt.Errorf("map: %w", err)
			}
		}
		if _, err := tx.ExecContext(ctx, `UPDATE state SET map_seq = ? WHERE id = 1`, seq); err != nil {
			return err
		}
		return tx.Commit()
	})
}

type mapFile struct{ path, tmp string }

// render writes the map of w to temporary files beside svgPath and pngPath
// (either may be "").
func (r *Referee) render(w *rules.World, svgPath, pngPath string) ([]mapFile, error) {
	m, err := r.drawing()
	if err != nil {
		return nil, err
	}
	var files []mapFile
	svg := m.SVG(w)
	if svgPath != "" {
		tmp, err := writeTemp(svgPath, svg)
		if err != nil {
			return files, err
		}
		files = append(files, mapFile{svgPath, tmp})
	}
	if pngPath != "" {
		img, err := m.Rasterize(svg)
		if err != nil {
			return files, err
		}
		var b bytes.Buffer
		if err := mapdraw.Encode(&b, img); err != nil {
			return files, err
		}
		tmp, err := writeTemp(pngPath, b.Bytes())
		if err != nil {
			return files, err
		}
		files = append(files, mapFile{pngPath, tmp})
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
	files, err := r.render(w, svgPath, pngPath)
	defer func() {
		for _, f := range files {
			os.Remove(f.tmp)
		}
	}()
	if err != nil {
		return err
	}
	return os.Rename(files[0].tmp, files[0].path)
}

// writeTemp writes data to a new temporary file in path's directory and
// returns its name. Temporary files of path older than a minute, left by a
// process killed while drawing, are removed first.
func writeTemp(path string, data []byte) (string, error) {
	pattern := filepath.Join(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if stale, err := filepath.Glob(pattern); err == nil {
		for _, s := range stale {
			if st, err := os.Stat(s); err == nil && time.Since(st.ModTime()) > time.Minute {
				os.Remove(s)
			}
		}
	}
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return "", fmt.Errorf("map: %w", err)
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		os.Remove(f.Name())
		return "", fmt.Errorf("map: writing %s: %w", path, err)
	}
	if err := f.Chmod(0o644); err != nil {
		f.Close()
		os.Remove(f.Name())
		return "", err
	}
	if err := f.Close(); err != nil {
		os.Remove(f.Name())
		return "", fmt.Errorf("map: writing %s: %w", path, err)
	}
	return f.Name(), nil
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
