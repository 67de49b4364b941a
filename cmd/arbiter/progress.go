package main

import (
	"fmt"
	"io"
	"os"
	"sync/atomic"
	"time"

	"github.com/vbauerster/mpb/v8"
	"github.com/vbauerster/mpb/v8/decor"
	"golang.org/x/term"
)

// progressAfter is how long a series runs before it shows a progress bar.
const progressAfter = 2 * time.Second

// progress shows a bar of the games played, on a terminal, once a series has
// taken longer than progressAfter. Elsewhere, and for short series, it shows
// nothing.
type progress struct {
	out    io.Writer
	total  int
	played int
	faults atomic.Int64 // the decisions that got the default move, so far (read by the bar's goroutine)
	start  time.Time
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
	return &progress{out: w, total: total, start: time.Now()}
}

// game counts one more game played, and its faults.
func (p *progress) game(faults int) {
	if p == nil {
		return
	}
	p.played++
	p.faults.Add(int64(faults))
	if p.bar == nil {
		if time.Since(p.start) < progressAfter {
			return
		}
		p.p = mpb.New(mpb.WithOutput(p.out), mpb.WithWidth(40))
		p.bar = p.p.AddBar(int64(p.total),
			mpb.PrependDecorators(decor.Name("games "), decor.CountersNoUnit("%d / %d")),
			mpb.AppendDecorators(p.after()...),
			mpb.BarRemoveOnComplete(),
		)
	}
	p.bar.SetCurrent(int64(p.played))
}

// after is what the bar shows after it: the games a second and the time
// left, both counted from the series' start (the bar appears later, with
// the games played so far), and the faults so far.
func (p *progress) after() []decor.Decorator {
	return []decor.Decorator{
		decor.NewAverageSpeed(0, " %.0f games/s", p.start), decor.Name("  left "), decor.NewAverageETA(decor.ET_STYLE_GO, p.start, nil),
		decor.Any(func(decor.Statistics) string {
			if n := p.faults.Load(); n > 0 {
				return fmt.Sprintf("  faults %d", n)
			}
			return ""
		}),
	}
}

// close removes the bar, whether or not the series finished.
func (p *progress) close() {
	if p == nil || p.bar == nil {
		return
	}
	if p.played < p.total {
		p.bar.Abort(true)
	}
	p.p.Wait()
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
