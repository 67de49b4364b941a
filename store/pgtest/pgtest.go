// Package pgtest runs a throwaway PostgreSQL cluster for tests: initdb in
// a temporary directory, a server listening on 127.0.0.1 only (and on a
// socket in that directory), a new database for each test, and the whole
// cluster stopped and removed at the end. It uses the PostgreSQL that is
// installed (Debian's postgresql: /usr/lib/postgresql/VERSION/bin); there
// is no mock of the database.
//
// A test binary shares one cluster (Shared), started at its first use and
// stopped by Stop from TestMain. If the test process dies first (a test's
// timeout), a watchdog started with the cluster stops it and removes its
// directory, so no server outlives its tests.
package pgtest

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net"
	"net/url"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib" // PostgreSQL
)

// Cluster is a running throwaway PostgreSQL cluster.
type Cluster struct {
	bin  string // the directory of initdb, pg_ctl, postgres
	dir  string // the data directory, which also holds the socket
	port int
	// owner runs the cluster's programs when this process is root
	// (PostgreSQL refuses to run as root): its user name, or "".
	owner string
	// Password is the password of the role Secretive, which (unlike the
	// others) must log in with it over TCP.
	Password string

	// opts are the server's options (pg_ctl start -o), for Up.
	opts string

	watchdog *exec.Cmd
	alive    io.WriteCloser // the watchdog's standard input: closed, it stops the cluster
	admin    *sql.DB
	next     atomic.Int64
	stopOnce sync.Once
	stopErr  error
}

// Secretive is the role that logs in with a password (Cluster.Password).
const Secretive = "secretive"

// Options tune a cluster.
type Options struct {
	// NoFsync turns off fsync: faster, and still durable against the
	// crash of a client (what the tests kill), not of the machine.
	NoFsync bool
}

// Bin returns the directory of the installed PostgreSQL's programs: the
// newest /usr/lib/postgresql/VERSION/bin, or the one of the initdb on the
// PATH.
func Bin() (string, error) {
	dirs, _ := filepath.Glob("/usr/lib/postgresql/*/bin")
	sort.Slice(dirs, func(i, j int) bool { return version(dirs[i]) > version(dirs[j]) })
	for _, d := range dirs {
		if _, err := os.Stat(filepath.Join(d, "initdb")); err == nil {
			return d, nil
		}
	}
	if p, err := exec.LookPath("initdb"); err == nil {
		if real, err := filepath.EvalSymlinks(p); err == nil {
			p = real
		}
		return filepath.Dir(p), nil
	}
	return "", errors.New("PostgreSQL is not installed (no initdb in /usr/lib/postgresql/*/bin or on the PATH); on Debian: apt-get install postgresql")
}

// version is the major version in a path /usr/lib/postgresql/VERSION/bin.
func version(dir string) int {
	n, _ := strconv.Atoi(filepath.Base(filepath.Dir(dir)))
	return n
}

// Start starts a new cluster in a new temporary directory.
func Start(o Options) (*Cluster, error) {
	bin, err := Bin()
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "arbiter-pg-")
	if err != nil {
		return nil, err
	}
	c := &Cluster{bin: bin, dir: dir}
	if os.Geteuid() == 0 {
		c.owner = "postgres"
		u, err := user.Lookup(c.owner)
		if err != nil {
			os.RemoveAll(dir)
			return nil, fmt.Errorf("running as root, the cluster needs the user postgres (Debian's postgresql makes it): %w", err)
		}
		uid, _ := strconv.Atoi(u.Uid)
		gid, _ := strconv.Atoi(u.Gid)
		if err := os.Chown(dir, uid, gid); err != nil {
			os.RemoveAll(dir)
			return nil, err
		}
	}
	if err := c.start(o); err != nil {
		c.Stop()
		return nil, err
	}
	return c, nil
}

// command is one of the cluster's programs, run as its owner.
func (c *Cluster) command(name string, args ...string) *exec.Cmd {
	prog := filepath.Join(c.bin, name)
	if c.owner != "" {
		return exec.Command("runuser", append([]string{"-u", c.owner, "--", prog}, args...)...)
	}
	return exec.Command(prog, args...)
}

func (c *Cluster) start(o Options) error {
	data := filepath.Join(c.dir, "data")
	out, err := c.command("initdb", "-D", data, "-U", "postgres", "--auth=trust", "--encoding=UTF8", "--locale=C", "--no-sync").CombinedOutput()
	if err != nil {
		return fmt.Errorf("initdb: %v\n%s", err, out)
	}
	// Everyone on this machine over the socket and 127.0.0.1, without a
	// password, but Secretive, who gives one.
	hba := "local all all trust\nhost all " + Secretive + " 127.0.0.1/32 scram-sha-256\nhost all all 127.0.0.1/32 trust\n"
	if err := writeAs(filepath.Join(data, "pg_hba.conf"), hba, c.owner); err != nil {
		return err
	}
	if err := c.watch(); err != nil {
		return err
	}
	var last error
	for attempt := 0; attempt < 5; attempt++ {
		port, err := freePort()
		if err != nil {
			return err
		}
		opts := fmt.Sprintf("-p %d -k %s -c listen_addresses=127.0.0.1 -c max_connections=300 -c shared_buffers=64MB", port, c.dir)
		if o.NoFsync {
			opts += " -c fsync=off -c synchronous_commit=off -c full_page_writes=off"
		}
		out, err := c.command("pg_ctl", "start", "-w", "-t", "120", "-D", data, "-l", filepath.Join(c.dir, "log"), "-o", opts).CombinedOutput()
		if err == nil {
			c.port, c.opts = port, opts
			break
		}
		log, _ := os.ReadFile(filepath.Join(c.dir, "log"))
		last = fmt.Errorf("pg_ctl start: %v\n%s\n%s", err, out, log)
		if !strings.Contains(string(log), "could not bind") && !strings.Contains(string(log), "already in use") {
			return last
		}
	}
	if c.port == 0 {
		return last
	}
	admin, err := sql.Open("pgx", c.URL("postgres"))
	if err != nil {
		return err
	}
	admin.SetMaxOpenConns(2)
	c.admin = admin
	c.Password = randomHex(12)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if _, err := admin.ExecContext(ctx, fmt.Sprintf("CREATE ROLE %s LOGIN CREATEDB PASSWORD '%s'", Secretive, c.Password)); err != nil {
		return fmt.Errorf("making the role %s: %w", Secretive, err)
	}
	return nil
}

// watch starts the watchdog: a shell that waits for its standard input to
// close (this process ending, however it ends) and then stops the cluster
// and removes its directory.
func (c *Cluster) watch() error {
	script := `read _ ; "$1/pg_ctl" stop -D "$2/data" -m immediate -w >/dev/null 2>&1 ; rm -rf "$2"`
	var cmd *exec.Cmd
	if c.owner != "" {
		cmd = exec.Command("runuser", "-u", c.owner, "--", "sh", "-c", script, "watchdog", c.bin, c.dir)
	} else {
		cmd = exec.Command("sh", "-c", script, "watchdog", c.bin, c.dir)
	}
	cmd.SysProcAttr = ownGroup() // not killed with the test's process group
	in, err := cmd.StdinPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("the cluster's watchdog: %w", err)
	}
	c.watchdog, c.alive = cmd, in
	return nil
}

// writeAs writes a file that user owns ("" for this process's user).
func writeAs(path, content, owner string) error {
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		return err
	}
	if owner == "" {
		return nil
	}
	u, err := user.Lookup(owner)
	if err != nil {
		return err
	}
	uid, _ := strconv.Atoi(u.Uid)
	gid, _ := strconv.Atoi(u.Gid)
	return os.Chown(path, uid, gid)
}

// freePort returns a TCP port of 127.0.0.1 that nobody listens on now.
func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

func randomHex(n int) string {
	b := make([]byte, n)
	rand.Read(b)
	return hex.EncodeToString(b)
}

// URL is the URL of database db for the role postgres, over TCP.
func (c *Cluster) URL(db string) string {
	return fmt.Sprintf("postgres://postgres@127.0.0.1:%d/%s?sslmode=disable", c.port, db)
}

// PasswordURL is the URL of database db for Secretive, with its password.
func (c *Cluster) PasswordURL(db string) string {
	u := url.URL{Scheme: "postgres", User: url.UserPassword(Secretive, c.Password), Host: fmt.Sprintf("127.0.0.1:%d", c.port), Path: "/" + db, RawQuery: "sslmode=disable"}
	return u.String()
}

// Port is the TCP port the cluster listens on, on 127.0.0.1.
func (c *Cluster) Port() int { return c.port }

// DataDir is the cluster's data directory (its files on the disk).
func (c *Cluster) DataDir() string { return filepath.Join(c.dir, "data") }

// CreateDatabase makes a new empty database and returns its URL.
func (c *Cluster) CreateDatabase(ctx context.Context) (string, error) {
	name := fmt.Sprintf("t%d_%s", c.next.Add(1), randomHex(3))
	if _, err := c.admin.ExecContext(ctx, "CREATE DATABASE "+name+" OWNER "+Secretive); err != nil {
		return "", fmt.Errorf("CREATE DATABASE %s: %w", name, err)
	}
	return c.URL(name), nil
}

// NewDatabase makes a new database for test t, dropped when t ends, and
// returns its URL.
func (c *Cluster) NewDatabase(t testing.TB) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	u, err := c.CreateDatabase(ctx)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.dropDatabase(u) })
	return u
}

// dropDatabase drops the database of URL u, closing its connections.
func (c *Cluster) dropDatabase(u string) {
	parsed, err := url.Parse(u)
	if err != nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	c.admin.ExecContext(ctx, "DROP DATABASE IF EXISTS "+strings.TrimPrefix(parsed.Path, "/")+" WITH (FORCE)")
}

// Exec runs a statement as postgres in database postgres (CHECKPOINT, ...).
func (c *Cluster) Exec(ctx context.Context, query string) error {
	_, err := c.admin.ExecContext(ctx, query)
	return err
}

// Down stops the cluster's server as an administrator's fast shutdown
// does, keeping its files: the connections of its clients are cut, and new
// ones refused, until Up. A test of a database that cannot be reached
// starts a cluster of its own (Start) for it, not the shared one.
func (c *Cluster) Down() error {
	out, err := c.command("pg_ctl", "stop", "-w", "-t", "120", "-D", c.DataDir(), "-m", "fast").CombinedOutput()
	if err != nil {
		return fmt.Errorf("pg_ctl stop: %v\n%s", err, out)
	}
	return nil
}

// Up starts the server of a cluster that Down stopped, on the same port.
func (c *Cluster) Up() error {
	out, err := c.command("pg_ctl", "start", "-w", "-t", "120", "-D", c.DataDir(), "-l", filepath.Join(c.dir, "log"), "-o", c.opts).CombinedOutput()
	if err != nil {
		log, _ := os.ReadFile(filepath.Join(c.dir, "log"))
		return fmt.Errorf("pg_ctl start: %v\n%s\n%s", err, out, log)
	}
	return nil
}

// Stop stops the cluster and removes its directory.
func (c *Cluster) Stop() error {
	c.stopOnce.Do(func() {
		if c.admin != nil {
			c.admin.Close()
		}
		if c.watchdog == nil {
			c.stopErr = os.RemoveAll(c.dir)
			return
		}
		c.alive.Close() // the watchdog stops the cluster and removes it
		c.stopErr = c.watchdog.Wait()
		if c.owner != "" {
			os.RemoveAll(c.dir)
		}
	})
	return c.stopErr
}

var (
	shared     *Cluster
	sharedErr  error
	sharedOnce sync.Once
	sharedMu   sync.Mutex
)

// Available starts the shared cluster if it is not running and reports
// whether there is one; the error says why not (PostgreSQL not installed,
// or failing to start).
func Available() (*Cluster, error) {
	sharedOnce.Do(func() {
		sharedMu.Lock()
		defer sharedMu.Unlock()
		shared, sharedErr = Start(Options{NoFsync: os.Getenv("ARBITER_PG_FSYNC") == ""})
	})
	return shared, sharedErr
}

// Shared returns the test binary's cluster, started at the first call.
// When PostgreSQL is not installed it skips t, but fails it in CI
// (ARBITER_CI set), where .ci/run installs it.
func Shared(t testing.TB) *Cluster {
	t.Helper()
	c, err := Available()
	if err != nil {
		if _, binErr := Bin(); binErr != nil && os.Getenv("ARBITER_CI") == "" {
			t.Skipf("skipping the PostgreSQL test: %v", binErr)
		}
		t.Fatalf("PostgreSQL: %v", err)
	}
	return c
}

// Required reports whether the PostgreSQL tests must run: in CI
// (ARBITER_CI set), or wherever PostgreSQL is installed.
func Required() bool {
	if os.Getenv("ARBITER_CI") != "" {
		return true
	}
	_, err := Bin()
	return err == nil
}

// StopShared stops the shared cluster, if it was started: call it at the
// end of TestMain.
func StopShared() {
	sharedMu.Lock()
	defer sharedMu.Unlock()
	if shared != nil {
		shared.Stop()
	}
}
