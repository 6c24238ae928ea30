package main

import (
	"fmt"
	"github.com/svclust/svclust/internal/numfmt"
	"io"
	"math"
	"os"
	"sync"
	"sync/atomic"
	"time"
)

// Progress reporting on standard error. The library prints nothing, so fit
// reports at the granularity of its phases (read, train, cluster, metrics,
// write; with -stream also scale and assign), with counts where the command
// itself loops, the bytes read and the rows assigned, and in the cluster
// phase what the cluster Method's Progress reports: the rows scored with -rule
// levels, the trajectories followed with -rule components.
//
// On a terminal a status line is redrawn in place, starting only once the
// run has lasted ttyDelay, so that short runs print nothing. With -progress
// (on a terminal or not) every phase prints a line when it ends, and long
// phases a line every logEvery. -quiet turns reporting off.
const (
	ttyDelay = 2 * time.Second
	ttyEvery = 250 * time.Millisecond
	logEvery = 5 * time.Second
)

// progress reports the phases of one command. A nil *progress reports
// nothing, so code that runs both with and without reporting (fitCluster is
// also used by tune) takes a nil one.
type progress struct {
	w     io.Writer
	name  string // the command, "svclust fit"
	tty   bool   // redraw one line with \r; otherwise print lines
	every time.Duration
	delay time.Duration // nothing is printed before start+delay
	start time.Time
	now   func() time.Time

	done atomic.Int64 // units of the current phase done, stored by set

	mu         sync.Mutex
	phase      string // "" between phases
	unit       string // what done counts: "bytes" or "rows"
	total      int64  // total units of the phase, 0 if unknown
	phaseStart time.Time
	last       time.Time // of the last line printed
	drawn      bool      // a tty status line is on the screen
	stop       chan struct{}
	stopped    chan struct{}
	once       sync.Once // closes stop
}

// newProgress returns the reporter for a command that writes to stderr, or
// nil when nothing is to be reported: with quiet, and without force when
// stderr is not a terminal.
func newProgress(stderr io.Writer, name string, force, quiet bool) *progress {
	tty := isTerminal(stderr)
	if quiet || !(force || tty) {
		return nil
	}
	p := &progress{w: stderr, name: name, tty: tty, every: logEvery, now: time.Now}
	if tty {
		p.every = ttyEvery
		if !force {
			p.delay = ttyDelay
		}
	}
	p.start = p.now()
	p.stop = make(chan struct{})
	p.stopped = make(chan struct{})
	go p.tick()
	return p
}

// isTerminal reports whether w is a character device, as a terminal is.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

// tick prints the status of a running phase every p.every until close.
func (p *progress) tick() {
	t := time.NewTicker(p.every)
	defer t.Stop()
	p.loop(t.C)
}

// loop prints the status of a running phase at the times received from
// ticks when a line is due, until close; it closes p.stopped on return.
func (p *progress) loop(ticks <-chan time.Time) {
	defer close(p.stopped)
	for {
		select {
		case <-p.stop:
			return
		case now := <-ticks:
			p.mu.Lock()
			if p.phase != "" && due(now, p.last, p.every) {
				p.print(now, p.status(now), false)
			}
			p.mu.Unlock()
		}
	}
}

// due reports whether a tick at now, of a ticker of period every, prints a
// status line when the last line was printed, or the phase began, at last.
// The ticks come a period apart, so a line is due at each. The threshold
// is half a period, not a whole one, so that a tick that comes a little
// less than a period after the previous line is not skipped (with a whole
// period, about every other tick was), while a tick that comes just after
// a phase began, or after the summary line of the previous phase, prints
// no status of nothing done: the first status line of a phase comes
// between a half and one and a half periods into it.
func due(now, last time.Time, every time.Duration) bool {
	return now.Sub(last) >= every/2
}

// begin starts a phase that counts total units of unit ("bytes", "rows";
// total 0 if unknown, unit "" if it counts nothing).
func (p *progress) begin(phase, unit string, total int64) {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.phase, p.unit, p.total = phase, unit, total
	p.phaseStart = p.now()
	p.last = p.phaseStart
	p.done.Store(0)
}

// set records that n units of the current phase are done. It is cheap and
// safe to call from the loop of the phase.
func (p *progress) set(n int64) {
	if p != nil {
		p.done.Store(n)
	}
}

// setTotal records that done of total units of the current phase are
// done, for a phase whose total is known only once it runs.
func (p *progress) setTotal(done, total int64) {
	if p == nil {
		return
	}
	p.mu.Lock()
	p.total = total
	p.mu.Unlock()
	p.done.Store(done)
}

// end ends the current phase; with -progress it prints its summary line.
func (p *progress) end() {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.tty {
		p.print(p.now(), p.summary(), true)
	}
	p.phase = ""
}

// close stops the reporter and clears a status line from the terminal.
func (p *progress) close() {
	if p == nil {
		return
	}
	p.once.Do(func() { close(p.stop) })
	<-p.stopped
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.drawn {
		fmt.Fprint(p.w, "\r\033[K")
		p.drawn = false
	}
}

// print writes line at the time now, as a redrawn status line on a
// terminal, unless the run is younger than p.delay; final lines of a log
// are always written.
func (p *progress) print(now time.Time, line string, final bool) {
	if now.Sub(p.start) < p.delay && !final {
		return
	}
	p.last = now
	if p.tty {
		fmt.Fprintf(p.w, "\r%s: %s\033[K", p.name, line)
		p.drawn = true
		return
	}
	fmt.Fprintf(p.w, "%s: %s\n", p.name, line)
}

// status describes the running phase at the time now: "assign: 1,200,000
// of 20,000,000 rows (6.0%), 52,345 rows/s, 5m58s left".
func (p *progress) status(now time.Time) string {
	el := now.Sub(p.phaseStart)
	done := p.done.Load()
	if p.unit == "" || done == 0 {
		return p.phase + " " + seconds(el)
	}
	rate := float64(done) / el.Seconds()
	unit := p.unitName()
	if p.total <= 0 {
		return fmt.Sprintf("%s: %s %s, %s %s/s", p.phase, p.number(float64(done)), unit, p.number(rate), unit)
	}
	s := fmt.Sprintf("%s: %s of %s %s (%.1f%%), %s %s/s", p.phase, p.number(float64(done)), p.number(float64(p.total)), unit,
		100*float64(done)/float64(p.total), p.number(rate), unit)
	if left := float64(p.total-done) / rate; left >= 0 && !math.IsInf(left, 0) {
		s += ", " + seconds(time.Duration(left*float64(time.Second))) + " left"
	}
	return s
}

// summary describes the phase just ended: "read: 820.1 MB in 5.2 s".
func (p *progress) summary() string {
	el := p.now().Sub(p.phaseStart)
	if done := p.done.Load(); p.unit != "" && done > 0 {
		return fmt.Sprintf("%s: %s %s in %s", p.phase, p.number(float64(done)), p.unitName(), seconds(el))
	}
	return fmt.Sprintf("%s: done in %s", p.phase, seconds(el))
}

// unitName returns the unit in which number shows amounts of the phase.
func (p *progress) unitName() string {
	if p.unit == "bytes" {
		return "MB"
	}
	return p.unit
}

// number formats an amount of the current phase in its unitName: bytes
// as megabytes with one decimal, counts with thousands separators.
func (p *progress) number(v float64) string {
	if p.unit == "bytes" {
		return fmt.Sprintf("%.1f", v/1e6)
	}
	return numfmt.Thousands(int64(v))
}

// seconds formats a duration to a tenth of a second, or whole seconds
// from a minute on ("2m5s").
func seconds(d time.Duration) string {
	if d >= time.Minute {
		return d.Round(time.Second).String()
	}
	return fmt.Sprintf("%.1f s", d.Seconds())
}

// countingReader counts the bytes read through it, for the progress of a
// read phase.
type countingReader struct {
	r io.Reader
	n int64
	p *progress
}

func (c *countingReader) Read(b []byte) (int, error) {
	n, err := c.r.Read(b)
	c.n += int64(n)
	c.p.set(c.n)
	return n, err
}
