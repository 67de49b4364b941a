package store

import (
	"bufio"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strconv"
	"strings"

	"github.com/pressly/goose/v3"
	"github.com/pressly/goose/v3/database"
	"github.com/pressly/goose/v3/lock"
)

// A game's own tables (territories' nations and holdings) are projections
// of its matches' logs for SQL readers: a projector in store/<game> writes
// them in each move's transaction (Append.Project, Submission.Project,
// Referee.Project), and keeps their schema with goose migrations of its
// own, recorded in a version table of its own so that they never mix with
// the store's.

// Schema returns the store's own migrations, for MigrateTx.
func Schema() fs.FS {
	sub, err := fs.Sub(migrations, "migrations")
	if err != nil {
		panic(err) // the embedded directory is there
	}
	return sub
}

// Migrate brings a projector's tables up to date with its goose migrations
// fsys, recorded in the version table table. On PostgreSQL, servers that
// start at once take turns (goose's session lock).
func (s *Store) Migrate(ctx context.Context, fsys fs.FS, table string) error {
	dialect := goose.DialectSQLite3
	opts := []goose.ProviderOption{goose.WithTableName(table)}
	if s.postgres {
		dialect = goose.DialectPostgres
		locker, err := lock.NewPostgresSessionLocker()
		if err != nil {
			return err
		}
		opts = append(opts, goose.WithSessionLocker(locker))
	}
	p, err := goose.NewProvider(dialect, s.db, fsys, opts...)
	if err != nil {
		return fmt.Errorf("migrations of %s: %w", table, err)
	}
	if _, err := p.Up(ctx); err != nil {
		return fmt.Errorf("migrating %s: %w", table, err)
	}
	return nil
}

// MigrateTx applies inside tx the goose migrations of fsys that the
// version table table does not record, and records them there as goose
// does, so that goose finds them applied later. It is for a database
// converted from another layout in one transaction, which goose (a
// transaction per migration) cannot do. It reads the SQL files as goose
// does: the statements after "-- +goose Up" up to "-- +goose Down", each
// ended by a line whose last word ends with a semicolon, or written
// between "-- +goose StatementBegin" and "-- +goose StatementEnd". A file
// that asks for no transaction, or for variables, is refused.
func MigrateTx(ctx context.Context, tx *sql.Tx, fsys fs.FS, table string, postgres bool) error {
	dialect := database.DialectSQLite3
	if postgres {
		dialect = database.DialectPostgres
	}
	versions, err := database.NewStore(dialect, table)
	if err != nil {
		return err
	}
	applied, err := appliedVersions(ctx, tx, versions, postgres)
	if err != nil {
		return fmt.Errorf("%s: %w", table, err)
	}
	files, err := migrationFiles(fsys)
	if err != nil {
		return err
	}
	for _, f := range files {
		if applied[f.version] {
			continue
		}
		stmts, err := upStatements(fsys, f.name)
		if err != nil {
			return fmt.Errorf("migration %s: %w", f.name, err)
		}
		for _, q := range stmts {
			if _, err := tx.ExecContext(ctx, q); err != nil {
				return fmt.Errorf("migration %s: %w", f.name, err)
			}
		}
		if err := versions.Insert(ctx, tx, database.InsertRequest{Version: f.version}); err != nil {
			return fmt.Errorf("migration %s: recording it: %w", f.name, err)
		}
	}
	return nil
}

// appliedVersions returns the versions the version table records, made
// (with goose's version 0) when it is not there.
func appliedVersions(ctx context.Context, tx *sql.Tx, versions database.Store, postgres bool) (map[int64]bool, error) {
	query := `SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = $1`
	if postgres {
		query = `SELECT count(*) FROM pg_tables WHERE tablename = $1 AND schemaname = ANY (current_schemas(false))`
	}
	var exists int
	if err := tx.QueryRowContext(ctx, query, versions.Tablename()).Scan(&exists); err != nil {
		return nil, err
	}
	if exists == 0 {
		if err := versions.CreateVersionTable(ctx, tx); err != nil {
			return nil, err
		}
		if err := versions.Insert(ctx, tx, database.InsertRequest{Version: 0}); err != nil {
			return nil, err
		}
	}
	list, err := versions.ListMigrations(ctx, tx)
	if err != nil {
		return nil, err
	}
	applied := map[int64]bool{}
	for _, m := range list {
		if m.IsApplied {
			applied[m.Version] = true
		}
	}
	return applied, nil
}

// migrationFile is one SQL migration: its name and version.
type migrationFile struct {
	name    string
	version int64
}

// migrationFiles returns the SQL migrations of fsys in version order, as
// goose numbers them: the digits before the first underscore.
func migrationFiles(fsys fs.FS) ([]migrationFile, error) {
	names, err := fs.Glob(fsys, "*.sql")
	if err != nil {
		return nil, err
	}
	var out []migrationFile
	for _, name := range names {
		digits, _, ok := strings.Cut(path.Base(name), "_")
		v, err := strconv.ParseInt(digits, 10, 64)
		if !ok || err != nil || v < 1 {
			return nil, fmt.Errorf("migration %s: its name does not begin with a version number and an underscore", name)
		}
		out = append(out, migrationFile{name, v})
	}
	slices.SortFunc(out, func(a, b migrationFile) int { return int(a.version - b.version) })
	return out, nil
}

// upStatements reads the Up statements of one goose SQL migration.
func upStatements(fsys fs.FS, name string) ([]string, error) {
	data, err := fs.ReadFile(fsys, name)
	if err != nil {
		return nil, err
	}
	var stmts []string
	var buf strings.Builder
	up, block := false, false
	sc := bufio.NewScanner(strings.NewReader(string(data)))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		line := sc.Text()
		trimmed := strings.TrimSpace(line)
		if strings.HasPrefix(trimmed, "--") && strings.Contains(line, "+goose") {
			switch annotation := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(strings.TrimPrefix(trimmed, "--")), "+goose")); annotation {
			case "Up":
				up = true
			case "Down":
				if strings.TrimSpace(buf.String()) != "" {
					return nil, errors.New("a statement before -- +goose Down does not end with a semicolon")
				}
				return stmts, nil
			case "StatementBegin":
				block = true
			case "StatementEnd":
				block = false
				stmts = append(stmts, strings.TrimSpace(buf.String()))
				buf.Reset()
			default:
				return nil, fmt.Errorf("-- +goose %s: this migration must run by goose itself", annotation)
			}
			continue
		}
		if !up || (buf.Len() == 0 && (trimmed == "" || strings.HasPrefix(trimmed, "--"))) {
			continue
		}
		buf.WriteString(line)
		buf.WriteByte('\n')
		if !block && endsStatement(line) {
			stmts = append(stmts, strings.TrimSpace(buf.String()))
			buf.Reset()
		}
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if !up {
		return nil, errors.New("no -- +goose Up")
	}
	if block || strings.TrimSpace(buf.String()) != "" {
		return nil, errors.New("the last statement does not end")
	}
	return stmts, nil
}

// endsStatement reports whether a line ends a statement, as goose reads
// it: its last word before a comment ends with a semicolon.
func endsStatement(line string) bool {
	last := ""
	for _, w := range strings.Fields(line) {
		if strings.HasPrefix(w, "--") {
			break
		}
		last = w
	}
	return strings.HasSuffix(last, ";")
}
