//go:build unix

package main

import (
	"bytes"
	"os"
	"os/signal"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// tempName matches the temporary files of the outputs named in
// writeOutputs: a hidden ".NAME.tmp" followed by digits, beside NAME.
func tempName(name string) *regexp.Regexp {
	return regexp.MustCompile(`^\.` + regexp.QuoteMeta(name) + `\.tmp[0-9]+$`)
}

// checkAfterKill checks that every output in dir holds its old content or
// its complete new one, and that every other entry is a recognisable
// temporary file of an output, which it removes. want maps each output
// name to its new content. It reports whether a temporary file shorter than
// the complete output was left: a write was interrupted.
func checkAfterKill(t *testing.T, dir string, old string, want map[string]string) (partial bool) {
	t.Helper()
	defer func() {
		// On Linux the temporary files are unnamed (O_TMPFILE; the file
		// systems of tests have it): a named one exists only, complete,
		// between its naming and its rename, so nothing partial is left.
		// Issue 13 found partial ones left forever.
		if partial && runtime.GOOS == "linux" {
			t.Error("a killed process left a partial temporary file")
		}
	}()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
next:
	for _, e := range ents {
		name := e.Name()
		if w, ok := want[name]; ok {
			got := readFile(t, filepath.Join(dir, name))
			if got != old && got != w {
				t.Errorf("%s holds %d bytes, neither the old content nor the complete new one (%d bytes)", name, len(got), len(w))
			}
			continue
		}
		for out, w := range want {
			if tempName(out).MatchString(name) {
				fi, err := e.Info()
				if err != nil {
					t.Fatal(err)
				}
				if fi.Size() < int64(len(w)) {
					partial = true
				}
				os.Remove(filepath.Join(dir, name))
				continue next
			}
		}
		t.Errorf("unexpected file %s left in the output directory", name)
	}
	return partial
}

// openTemp reports whether process pid is writing a temporary file of one
// of the outputs names in dir, and the file's size: a named one,
// ".NAME.tmp" and digits, or an unnamed one (Linux's O_TMPFILE), which
// /proc/PID/fd shows as "DIR/#inode (deleted)".
func openTemp(dir string, pid int, names ...string) (size int64, ok bool) {
	ents, _ := os.ReadDir(dir)
	for _, e := range ents {
		for _, n := range names {
			if tempName(n).MatchString(e.Name()) {
				if fi, err := e.Info(); err == nil {
					return fi.Size(), true
				}
			}
		}
	}
	fds := filepath.Join("/proc", strconv.Itoa(pid), "fd")
	ents, _ = os.ReadDir(fds)
	for _, e := range ents {
		target, err := os.Readlink(filepath.Join(fds, e.Name()))
		if err == nil && strings.HasPrefix(target, dir+"/#") {
			if fi, err := os.Stat(filepath.Join(fds, e.Name())); err == nil {
				return fi.Size(), true
			}
		}
	}
	return 0, false
}

// waitTemp waits until process pid writes a temporary file of one of the
// outputs names in dir (openTemp) and reports whether it saw one; it
// returns false if done is closed (the process ended) first.
func waitTemp(dir string, pid int, done <-chan struct{}, names ...string) bool {
	for {
		select {
		case <-done:
			return false
		default:
		}
		if _, ok := openTemp(dir, pid, names...); ok {
			return true
		}
		time.Sleep(100 * time.Microsecond)
	}
}

// TestKillMidWrite kills svclust (SIGKILL) at many moments of a run,
// including while it writes its output, and checks that the output then
// holds the old content or the complete new one, never a part, and that
// nothing but a hidden ".NAME.tmp…" file is left beside it. Runs that are
// not killed must write the complete output.
func TestKillMidWrite(t *testing.T) {
	if testing.Short() {
		t.Skip("runs child processes")
	}
	const rows = "200000" // about 8 MB of CSV
	dir := t.TempDir()
	out := filepath.Join(dir, "data.csv")
	// gen -o writes what gen writes to standard output (TestGen).
	want := map[string]string{"data.csv": mustCLI(t, "gen", "-n", rows, "-seed", "7")}
	const old = "old content\n"

	partial := 0
	run := func(afterTemp bool, delay time.Duration) {
		t.Helper()
		if err := os.WriteFile(out, []byte(old), 0o644); err != nil {
			t.Fatal(err)
		}
		cmd := svclustCmd(t, "gen", "-n", rows, "-seed", "7", "-o", out)
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		done := make(chan struct{})
		go func() { cmd.Wait(); close(done) }()
		// Wait for the temporary file: the output is being written.
		if afterTemp && !waitTemp(dir, cmd.Process.Pid, done, "data.csv") {
			t.Fatal("gen ended before its temporary file was seen")
		}
		time.Sleep(delay)
		// A temporary file shorter than the output, open at the kill: the
		// kill interrupts its write.
		size, open := openTemp(dir, cmd.Process.Pid, "data.csv")
		cmd.Process.Signal(syscall.SIGKILL)
		<-done
		if checkAfterKill(t, dir, old, want) || open && size < int64(len(want["data.csv"])) {
			if afterTemp {
				partial++
			}
		}
	}
	for _, d := range []time.Duration{0, 2 * time.Millisecond, 20 * time.Millisecond} {
		run(false, d) // while starting or generating
	}
	for _, d := range []time.Duration{0, time.Millisecond, 5 * time.Millisecond, 20 * time.Millisecond} {
		run(true, d) // while writing
	}
	t.Logf("%d of 4 kills during the write hit a partial temporary file", partial)
	if partial == 0 {
		t.Error("no kill interrupted a write: the test did not exercise what it checks")
	}

	// An undisturbed run writes the complete output.
	if err := os.WriteFile(out, []byte(old), 0o644); err != nil {
		t.Fatal(err)
	}
	if b, err := svclustCmd(t, "gen", "-n", rows, "-seed", "7", "-o", out).CombinedOutput(); err != nil {
		t.Fatalf("%v: %s", err, b)
	}
	if readFile(t, out) != want["data.csv"] {
		t.Error("the undisturbed run did not write the complete output")
	}
	checkAfterKill(t, dir, "", want)
}

// TestKillFit kills fit -o -model at moments spread over its run and at
// moments while it writes its outputs: each output must hold its old
// content or its complete new one. At least one kill must have landed while
// a temporary file of an output was open, that is after fit began to write
// its outputs and before it renamed them into place, or the test did not
// exercise what it checks.
func TestKillFit(t *testing.T) {
	if testing.Short() {
		t.Skip("runs child processes")
	}
	// With -rule components the model file holds the strip's landmark
	// points (about a quarter of the rows, MaxLandmarks at most), whose
	// JSON encoding keeps the model's temporary file open for some
	// milliseconds.
	data := genFile(t, "moons", 20000)
	dir := t.TempDir()
	labels, model := filepath.Join(dir, "labels.csv"), filepath.Join(dir, "model.json")
	args := []string{"fit", "-o", labels, "-model", model, "-budget", "30", "-rule", "components", data}

	// The new outputs, from an undisturbed child run, which also gives the
	// length of a run.
	start := time.Now()
	if b, err := svclustCmd(t, args...).CombinedOutput(); err != nil {
		t.Fatalf("%v: %s", err, b)
	}
	length := time.Since(start)
	want := map[string]string{"labels.csv": readFile(t, labels), "model.json": readFile(t, model)}
	t.Logf("an undisturbed run takes %v and writes %d + %d bytes", length, len(want["labels.csv"]), len(want["model.json"]))
	if !strings.HasPrefix(want["labels.csv"], "cluster,outlier\n") || !bytes.Contains([]byte(want["model.json"]), []byte(`"svclust-model"`)) {
		t.Fatal("the undisturbed run wrote unexpected outputs")
	}
	const old = "old\n"
	hit := 0
	run := func(whileWriting bool, delay time.Duration) {
		t.Helper()
		for _, p := range []string{labels, model} {
			if err := os.WriteFile(p, []byte(old), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		cmd := svclustCmd(t, args...)
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		done := make(chan struct{})
		go func() { cmd.Wait(); close(done) }()
		if whileWriting && waitTemp(dir, cmd.Process.Pid, done, "labels.csv", "model.json") {
			// Freeze fit the moment a temporary file is seen: on a
			// file system without a cost to fsync (tmpfs) the whole
			// write lasts some microseconds, so a kill after a sleep
			// would land after the rename. CI found 0 of 12 such kills
			// during the write.
			cmd.Process.Signal(syscall.SIGSTOP)
		}
		time.Sleep(delay)
		if _, open := openTemp(dir, cmd.Process.Pid, "labels.csv", "model.json"); open && whileWriting {
			hit++
		}
		cmd.Process.Signal(syscall.SIGKILL)
		<-done
		checkAfterKill(t, dir, old, want)
	}
	for i := range 5 {
		// From the start to a little past the end of an undisturbed run.
		run(false, length*time.Duration(i)/4)
	}
	// A fast write can begin and end between two looks at the directory
	// (waitTemp looks every 100 µs), and the stop can come after the
	// rename; such a run is not a hit. Up to 12 tries.
	kills := 0
	for ; kills < 4 || hit == 0 && kills < 12; kills++ {
		run(true, 0)
	}
	t.Logf("%d of %d kills landed while an output's temporary file was open", hit, kills)
	if hit == 0 {
		t.Error("no kill landed while fit wrote its outputs: the test did not exercise what it checks")
	}
}

// waitBusy waits until process pid has used cpu of processor time, which
// a child running svclust spends only after main has started (and installed
// its SIGINT handler). It reads /proc/PID/stat where there is one (Linux,
// whose clock tick is 1/100 s), and otherwise waits a second.
func waitBusy(t *testing.T, pid int, cpu time.Duration) {
	t.Helper()
	stat := filepath.Join("/proc", strconv.Itoa(pid), "stat")
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		b, err := os.ReadFile(stat)
		if err != nil {
			time.Sleep(time.Second)
			return
		}
		// Fields 14 and 15, after the command name in parentheses, are
		// the user and system time in clock ticks.
		f := strings.Fields(string(b[bytes.LastIndexByte(b, ')')+1:]))
		if len(f) > 12 {
			u, _ := strconv.Atoi(f[11])
			s, _ := strconv.Atoi(f[12])
			if time.Duration(u+s)*10*time.Millisecond >= cpu {
				return
			}
		}
		time.Sleep(5 * time.Millisecond)
	}
	t.Fatalf("process %d did not start working", pid)
}

// TestSIGINT sends a real SIGINT to a long tune: it must stop within the
// grace period with exit status 130 and the message, and leave no output.
func TestSIGINT(t *testing.T) {
	if testing.Short() {
		t.Skip("runs child processes")
	}
	data := genFile(t, "gauss3", 2000)
	dir := t.TempDir()
	out := filepath.Join(dir, "labels.csv")
	cmd := svclustCmd(t, "tune", "-o", out, "-workers", "1", "-gamma-grid", "1,2,3,4,5,6,7,8", "-C-grid", "8,16,32,64", data)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	waitBusy(t, cmd.Process.Pid, 200*time.Millisecond)
	sent := time.Now()
	cmd.Process.Signal(syscall.SIGINT)
	err := cmd.Wait()
	code := cmd.ProcessState.ExitCode()
	if code != exitInterrupted || !strings.Contains(stderr.String(), "interrupted") {
		t.Errorf("exit %d (%v), stderr %q; want %d and \"interrupted\"", code, err, stderr.String(), exitInterrupted)
	}
	// main gives a command interruptGrace to stop by itself; add some
	// seconds for a loaded machine.
	if d := time.Since(sent); d > interruptGrace+3*time.Second {
		t.Errorf("stopped %v after SIGINT", d)
	}
	ents, _ := os.ReadDir(dir)
	for _, e := range ents {
		t.Errorf("%s left after SIGINT", e.Name())
	}
}

// TestSignalsMidWrite sends SIGTERM and SIGHUP, as SIGINT, to gen while it
// writes its output: it must exit with 128 + the signal's number and say
// so, leave the output old or complete, and leave no temporary file.
// Issue 13 found both exiting 143/129 with no message, leaving the
// temporary file.
func TestSignalsMidWrite(t *testing.T) {
	if testing.Short() {
		t.Skip("runs child processes")
	}
	const rows = "200000" // about 8 MB of CSV
	want := map[string]string{"data.csv": mustCLI(t, "gen", "-n", rows, "-seed", "7")}
	const old = "old content\n"
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGHUP, syscall.SIGINT} {
		if signal.Ignored(sig) {
			// Under nohup the child inherits the ignored SIGHUP and keeps
			// it ignored, as it should (TestNohup): nothing to test here.
			t.Logf("%v is ignored by this process (nohup?): not sent", sig)
			continue
		}
		dir := t.TempDir()
		out := filepath.Join(dir, "data.csv")
		if err := os.WriteFile(out, []byte(old), 0o644); err != nil {
			t.Fatal(err)
		}
		cmd := svclustCmd(t, "gen", "-n", rows, "-seed", "7", "-o", out)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		done := make(chan struct{})
		go func() { cmd.Wait(); close(done) }()
		if !waitTemp(dir, cmd.Process.Pid, done, "data.csv") {
			t.Fatalf("%v: gen ended before its temporary file was seen", sig)
		}
		cmd.Process.Signal(sig)
		<-done
		code := cmd.ProcessState.ExitCode()
		name := map[syscall.Signal]string{syscall.SIGTERM: "SIGTERM", syscall.SIGHUP: "SIGHUP", syscall.SIGINT: "SIGINT"}[sig]
		if code != 128+int(sig) || !strings.Contains(stderr.String(), "interrupted by "+name) {
			t.Errorf("%v: exit %d, stderr %q; want %d and \"interrupted by %s\"", sig, code, stderr.String(), 128+int(sig), name)
		}
		ents, _ := os.ReadDir(dir)
		for _, e := range ents {
			if e.Name() != "data.csv" {
				t.Errorf("%v: %s left", sig, e.Name())
			}
		}
		if got := readFile(t, out); got != old && got != want["data.csv"] {
			t.Errorf("%v: the output holds %d bytes, neither old nor complete", sig, len(got))
		}
	}
}

// TestNohup: a SIGHUP that was ignored when svclust started, as nohup
// makes it, stays ignored: the run completes.
func TestNohup(t *testing.T) {
	if testing.Short() {
		t.Skip("runs child processes")
	}
	data := genFile(t, "gauss3", 2000)
	out := filepath.Join(t.TempDir(), "labels.csv")
	// The shell ignores SIGHUP and execs svclust, which inherits that.
	exe, err := os.Executable()
	if err != nil {
		t.Skip(err)
	}
	cmd := svclustCmd(t)
	cmd.Path = "/bin/sh"
	cmd.Args = []string{"sh", "-c", `trap "" HUP; exec "$0" "$@"`, exe, "tune", "-o", out, "-workers", "1", "-gamma-grid", "1,2,3,4", "-C-grid", "8,16", data}
	if _, err := os.Stat(cmd.Path); err != nil {
		t.Skip(err)
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	waitBusy(t, cmd.Process.Pid, 100*time.Millisecond)
	cmd.Process.Signal(syscall.SIGHUP)
	if err := cmd.Wait(); err != nil {
		t.Fatalf("%v after SIGHUP under nohup: %s", err, stderr.String())
	}
	if !strings.HasPrefix(readFile(t, out), "cluster,outlier\n") {
		t.Error("no labels written")
	}
}
