package main

import (
	"bytes"
	"testing"
	"time"
)

// fakeProgress returns a reporter on w whose clock is *clock and that has
// no ticker, so that a test decides when lines are printed.
func fakeProgress(w *bytes.Buffer, tty bool, delay time.Duration, clock *time.Time) *progress {
	p := &progress{w: w, name: "svclust fit", tty: tty, every: time.Second, delay: delay,
		now: func() time.Time { return *clock }, stop: make(chan struct{}), stopped: make(chan struct{})}
	p.start = p.now()
	close(p.stopped)
	return p
}

// TestProgressStatus checks the status and summary lines: the rate is
// done/elapsed and the time left (total−done)/rate, so 250 of 1,000 rows in
// 2 s is 125 rows/s and 6 s left.
func TestProgressStatus(t *testing.T) {
	clock := time.Unix(0, 0)
	var b bytes.Buffer
	p := fakeProgress(&b, false, 0, &clock)
	for _, tc := range []struct {
		phase, unit  string
		total, done  int64
		after        time.Duration
		status, summ string
	}{
		{"assign", "rows", 1000, 250, 2 * time.Second,
			"assign: 250 of 1,000 rows (25.0%), 125 rows/s, 6.0 s left", "assign: 250 rows in 2.0 s"},
		{"read", "bytes", 10e6, 2.5e6, time.Second,
			"read: 2.5 of 10.0 MB (25.0%), 2.5 MB/s, 3.0 s left", "read: 2.5 MB in 1.0 s"},
		{"read", "bytes", 0, 1e6, time.Second, "read: 1.0 MB, 1.0 MB/s", "read: 1.0 MB in 1.0 s"},
		{"assign", "rows", 20_000_000, 1_000_000, 90 * time.Second,
			"assign: 1,000,000 of 20,000,000 rows (5.0%), 11,111 rows/s, 28m30s left", "assign: 1,000,000 rows in 1m30s"},
		{"train", "", 0, 0, 1500 * time.Millisecond, "train 1.5 s", "train: done in 1.5 s"},
	} {
		p.begin(tc.phase, tc.unit, tc.total)
		p.set(tc.done)
		clock = clock.Add(tc.after)
		if got := p.status(clock); got != tc.status {
			t.Errorf("status %q, want %q", got, tc.status)
		}
		b.Reset()
		p.end()
		if got, want := b.String(), "svclust fit: "+tc.summ+"\n"; got != want {
			t.Errorf("end printed %q, want %q", got, want)
		}
	}
}

// TestProgressTerminal checks the terminal mode: nothing before the delay,
// then a line redrawn in place, no summary lines, and the line cleared by
// close.
func TestProgressTerminal(t *testing.T) {
	clock := time.Unix(0, 0)
	var b bytes.Buffer
	p := fakeProgress(&b, true, ttyDelay, &clock)
	p.begin("train", "", 0)
	clock = clock.Add(time.Second)
	p.print(clock, p.status(clock), false)
	if b.Len() != 0 {
		t.Errorf("printed %q before the delay", b.String())
	}
	clock = clock.Add(1500 * time.Millisecond)
	p.print(clock, p.status(clock), false)
	if got, want := b.String(), "\rsvclust fit: train 2.5 s\033[K"; got != want {
		t.Errorf("printed %q, want %q", got, want)
	}
	b.Reset()
	p.end()
	if b.Len() != 0 {
		t.Errorf("end printed %q on a terminal", b.String())
	}
	p.close()
	p.close() // a second close does nothing
	if got := b.String(); got != "\r\033[K" {
		t.Errorf("close printed %q, want the line cleared", got)
	}
}

// TestProgressLoop runs the reporting loop on ticks sent by the test at
// the fake times a loaded machine might handle them (period 1 s, each tick
// 0.1 s early or late): each tick from the second on prints a status line,
// also the ones that come 0.9 s after the line before, which a threshold of
// a whole period skipped; the first, 0.1 s after the phase began, prints
// none (due). The loop reads no clock but the ticks', so the output does
// not depend on timing.
func TestProgressLoop(t *testing.T) {
	t0 := time.Unix(0, 0)
	clock := t0.Add(300 * time.Millisecond)
	var b bytes.Buffer
	p := fakeProgress(&b, false, 0, &clock)
	p.stopped = make(chan struct{})
	p.begin("train", "", 0)
	ticks := make(chan time.Time)
	go p.loop(ticks)
	for _, ms := range []int{400, 1400, 2300, 3400, 4300} {
		ticks <- t0.Add(time.Duration(ms) * time.Millisecond)
	}
	p.close()
	// Elapsed since the phase began at 0.3 s.
	want := "svclust fit: train 1.1 s\nsvclust fit: train 2.0 s\nsvclust fit: train 3.1 s\nsvclust fit: train 4.0 s\n"
	if got := b.String(); got != want {
		t.Errorf("printed\n%s\nwant\n%s", got, want)
	}
}

// TestDue checks the threshold of half a period of due.
func TestDue(t *testing.T) {
	last := time.Unix(100, 0)
	for _, tc := range []struct {
		after time.Duration
		want  bool
	}{
		{-time.Second, false},           // a tick older than the phase
		{100 * time.Millisecond, false}, // just after the phase began
		{499 * time.Millisecond, false},
		{500 * time.Millisecond, true},
		{900 * time.Millisecond, true}, // a tick a little early
		{time.Second, true},
		{2500 * time.Millisecond, true},
	} {
		if got := due(last.Add(tc.after), last, time.Second); got != tc.want {
			t.Errorf("due %v after the last line: %v, want %v", tc.after, got, tc.want)
		}
	}
}

// TestProgressNil checks that a nil reporter, which the commands use when
// nothing is to be reported, accepts every call.
func TestProgressNil(t *testing.T) {
	var p *progress
	p.begin("read", "bytes", 10)
	p.set(5)
	p.end()
	p.close()
	if newProgress(&bytes.Buffer{}, "x", false, false) != nil {
		t.Error("a reporter for a buffer without -progress")
	}
	if newProgress(&bytes.Buffer{}, "x", true, true) != nil {
		t.Error("a reporter with -quiet")
	}
}
