package tournament

import (
	"fmt"
	"strconv"
	"strings"
)

// Shard is one part of a tournament: of Count shards, number Index (from 0)
// plays the games whose index leaves Index when divided by Count. The zero
// value, and 0/1, is the whole tournament.
type Shard struct {
	Index, Count int
}

// MaxShards bounds the number of shards.
const MaxShards = 100_000

// ParseShard reads a shard written "i/N": shard i of N, numbered from 0 as a
// Kubernetes Indexed Job numbers its pods.
func ParseShard(s string) (Shard, error) {
	is, ns, ok := strings.Cut(s, "/")
	if !ok {
		return Shard{}, fmt.Errorf("--shard %q: want i/N, shard i of N shards, numbered from 0 (e.g. 0/4 … 3/4)", s)
	}
	n, err := strconv.Atoi(ns)
	if err != nil || n < 1 || n > MaxShards {
		return Shard{}, fmt.Errorf("--shard %q: the number of shards must be a whole number from 1 to %d", s, MaxShards)
	}
	i, err := strconv.Atoi(is)
	if err != nil || i < 0 || i >= n {
		return Shard{}, fmt.Errorf("--shard %q: with %d shards the shard number must be from 0 to %d (shards are numbered from 0)", s, n, n-1)
	}
	return Shard{Index: i, Count: n}, nil
}

// String writes the shard as ParseShard reads it.
func (s Shard) String() string { return fmt.Sprintf("%d/%d", s.Index, s.count()) }

func (s Shard) count() int { return max(s.Count, 1) }

// Has reports whether game g (from 0) belongs to the shard.
func (s Shard) Has(g int) bool { return g%s.count() == s.Index }

// Games returns how many of n games belong to the shard.
func (s Shard) Games(n int) int {
	c := s.count()
	if s.Index >= n {
		return 0
	}
	return (n-s.Index-1)/c + 1
}
