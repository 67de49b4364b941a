package main

import (
	"fmt"
	"io"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"github.com/vbauerster/mpb/v8"
	"github.com/vbauerster/mpb/v8/decor"
	"golang.org/x/term"
)

// progressAfter is how long a series runs before it shows a progress bar.
const progressAfter = 2 * time.Second

// progress shows a bar of the games played, on a terminal, once a series has
// run for progressAfter, whether or not a game has ended by then: a series
// of long games (a search AI's) showed nothing until its first game ended,
// minutes later. Elsewhere, and for short series, it shows nothing.
type progress struct {
	out    io.Writer
	total  int
	faults atomic.Int64 // the decisions that got the default move, so far (read by the bar's goroutine)
	start  time.Time
	timer  *time.Timer // puts the bar up

	mu     sync.Mutex // guards what follows, against the timer's goroutine
	played int
	closed bool
	p      *mpb.Progress
	bar    *mpb.Bar
}

// newProgress returns a progress for total games written to w, or nil when w
// is not a terminal or there is one game only.
func newProgress(w io.Writer, total int) *progress {
	f, ok := w.(*os.File)
	if !ok || total < 2 || !term.IsTerminal(int(f.Fd())) {
		return nil
	}
	p := &progress{out: w, total: total, start: time.Now()}
	p.timer = time.AfterFunc(progressAfter, p.show)
	return p
}

// show puts the bar up, with the games played so far.
func (p *progress) show() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.bar != nil || p.closed {
		return
	}
	p.p = mpb.New(mpb.WithOutput(p.out), mpb.WithWidth(40))
	p.bar = p.p.AddBar(int64(p.total),
		mpb.PrependDecorators(decor.Name("games "), decor.CountersNoUnit("%d / %d")),
		mpb.AppendDecorators(p.after()...),
		mpb.BarRemoveOnComplete(),
	)
	p.bar.SetCurrent(int64(p.played))
}

// game counts one more game played, and its faults.
func (p *progress) game(faults int) {
	if p == nil {
		return
	}
	p.faults.Add(int64(faults))
	p.mu.Lock()
	defer p.mu.Unlock()
	p.played++
	if p.bar != nil {
		p.bar.SetCurrent(int64(p.played))
	}
}

// after is what the bar shows after it: the pace (pace), counted from the
// series' start (the bar appears later, with the games played so far), and
// the faults so far.
func (p *progress) after() []decor.Decorator {
	return []decor.Decorator{
		decor.Any(func(s decor.Statistics) string { return pace(int(s.Current), int(s.Total), time.Since(p.start)) }),
		decor.Any(func(decor.Statistics) string {
			if n := p.faults.Load(); n > 0 {
				return fmt.Sprintf("  faults %d", n)
			}
			return ""
		}),
	}
}

// pace says how fast done of total games went in elapsed, and the time
// left at that pace; before the first game ends, only the time so far: a
// rate of 0 and no time left (as the bar said) would tell of games that
// will never end.
func pace(done, total int, elapsed time.Duration) string {
	if done == 0 {
		return fmt.Sprintf("  %v so far, no game ended yet", elapsed.Truncate(time.Second))
	}
	left := time.Duration(float64(elapsed) / float64(done) * float64(total-done))
	return fmt.Sprintf(" %s  left %v", gamesPerSecond(done, elapsed), left.Truncate(time.Second))
}

// close removes the bar, whether or not the series finished.
func (p *progress) close() {
	if p == nil {
		return
	}
	p.timer.Stop()
	p.mu.Lock()
	p.closed = true
	bar, pp, played := p.bar, p.p, p.played
	p.mu.Unlock()
	if bar == nil {
		return
	}
	if played < p.total {
		bar.Abort(true)
	}
	pp.Wait()
}

// gamesPerSecond tells the rate of n games played in d, as the line that
// ends a run prints it: whole games a second from 10 up, and below that
// with a figure after the point, so that a slow run (a search AI's, or
// bots that think by the clock) is not told "0 games/s".
func gamesPerSecond(n int, d time.Duration) string {
	r := float64(n) / d.Seconds()
	if r < 10 {
		return fmt.Sprintf("%.2g games/s", r)
	}
	return fmt.Sprintf("%.0f games/s", r)
}
