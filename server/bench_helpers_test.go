package server_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/server"
	"github.com/arbiter-games/arbiter/store"
)

// benchServer is a real server for benchmarks.
type benchServer struct {
	url    string
	client *http.Client
}

func newBenchServer(b *testing.B, db string, cfg server.Config) *benchServer {
	b.Helper()
	st, err := store.Open(context.Background(), db, store.Options{})
	if err != nil {
		b.Fatal(err)
	}
	cfg.Store = st
	srv, err := server.New(cfg)
	if err != nil {
		b.Fatal(err)
	}
	if err := srv.Start(context.Background()); err != nil {
		b.Fatal(err)
	}
	hs := httptest.NewServer(srv.Handler())
	b.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		srv.Shutdown(ctx)
		hs.Close()
		st.Close()
	})
	return &benchServer{url: hs.URL, client: &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 256}}}
}

// post sends a JSON body with a secret and wants 200.
func (s *benchServer) post(path, secret, body string) error {
	req, _ := http.NewRequest("POST", s.url+path, bytes.NewReader([]byte(body)))
	req.Header.Set("Authorization", "Bearer "+secret)
	resp, err := s.client.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	out, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("%s: %d %s", path, resp.StatusCode, out)
	}
	return nil
}

// createTerritories makes a territories match where alice has joined, and
// returns its id and its judge's secret.
func (s *benchServer) createTerritories(b *testing.B) (id, judge string) {
	b.Helper()
	resp, err := s.client.Post(s.url+"/api/v1/matches", "application/json", bytes.NewReader([]byte(`{"game":"territories","seats":[]}`)))
	if err != nil {
		b.Fatal(err)
	}
	defer resp.Body.Close()
	var c struct {
		ID    string
		Judge struct{ Secret string }
	}
	if err := json.NewDecoder(resp.Body).Decode(&c); err != nil || resp.StatusCode != http.StatusCreated {
		b.Fatalf("create: %d %v", resp.StatusCode, err)
	}
	if err := s.post("/api/v1/matches/"+c.ID+"/moves", c.Judge.Secret, `{"move":{"player":"alice","action":"join Pacifica CA"}}`); err != nil {
		b.Fatal(err)
	}
	return c.ID, c.Judge.Secret
}
