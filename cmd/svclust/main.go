package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime/debug"
	"strings"
	"syscall"
	"time"

	"github.com/svclust/svclust/internal/atomicfile"
	"github.com/svclust/svclust/settings"
)

// A Command is one subcommand, after cmd/go's base.Command.
type Command struct {
	// Run runs the command with the arguments left after the flags. An
	// error of type *usageError exits with status 2, any other with 1.
	Run func(ctx context.Context, e *env, args []string) error

	// UsageLine is the one-line synopsis; its first word is the name.
	UsageLine string
	// Short is the description shown in the command list.
	Short string
	// Long is the description shown by 'svclust help cmd'.
	Long string
	// Flag holds the command's flags. It is built afresh for every run,
	// so that run can be called more than once in a process (the tests do).
	Flag *flag.FlagSet
}

// Name returns the command's name, the first word of UsageLine.
func (c *Command) Name() string {
	name, _, _ := strings.Cut(c.UsageLine, " ")
	return name
}

// env is what a command may touch of its surroundings.
type env struct {
	stdout, stderr io.Writer
	cmd            *Command
	// ctx is cancelled by a stop signal; outputs are not committed after.
	ctx context.Context
	// stdoutFile is stdout when it is a file (os.Stdout), else nil.
	stdoutFile *os.File
}

// toStdout reports whether the output path writes to standard output: "-",
// or a path naming the file, pipe or socket standard output is (such as
// /dev/stdout), not a terminal or /dev/null, where mixing does no harm.
func (e *env) toStdout(path string) bool {
	if path == "-" {
		return true
	}
	if path == "" || e.stdoutFile == nil {
		return false
	}
	fo, err := e.stdoutFile.Stat()
	if err != nil || fo.Mode()&os.ModeCharDevice != 0 {
		return false
	}
	fp, err := os.Stat(path)
	return err == nil && os.SameFile(fo, fp)
}

// usageError is a bad command line: exit status 2.
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

func usagef(format string, args ...any) error {
	return &usageError{fmt.Sprintf(format, args...)}
}

// commands returns the command table, with new flag sets. It is a
// variable so that a test can add a command.
var commands = func() []*Command {
	return []*Command{newFit(), newUpdate(), newPredict(), newScore(), newTune(), newGen(), newDemo(), newPlot(), newReproduce(), newVersion()}
}

// exitInterrupted is the exit status after SIGINT, 128 + 2 as shells
// report it, and interruptGrace how long main waits for a command to stop
// by itself before exiting.
const (
	exitInterrupted = 130
	interruptGrace  = 2 * time.Second
)

// stopSignals are the signals that stop a run: SIGINT (Ctrl-C), SIGTERM
// (kill, service managers) and SIGHUP (a closed terminal). Each is handled
// alike: the run is cancelled, the temporary files of unwritten outputs
// are removed, and svclust exits with 128 + the signal's number.
var stopSignals = []os.Signal{os.Interrupt, syscall.SIGTERM, syscall.SIGHUP}

// A signalCause is the cause of the cancellation of a run by a signal.
type signalCause struct{ sig os.Signal }

func (c signalCause) Error() string { return "received " + signalName(c.sig) }

// signalName returns the conventional name of a stop signal.
func signalName(s os.Signal) string {
	switch s {
	case os.Interrupt:
		return "SIGINT"
	case syscall.SIGTERM:
		return "SIGTERM"
	case syscall.SIGHUP:
		return "SIGHUP"
	}
	return s.String()
}

// exitCode returns the exit status after the signal s: 128 + its number,
// as shells report a process killed by it.
func exitCode(s os.Signal) int {
	if n, ok := s.(syscall.Signal); ok {
		return 128 + int(n)
	}
	return exitInterrupted
}

// interrupted returns the exit status and the name of the signal that
// cancelled ctx: 130 and SIGINT if the cause is not a signal (a test's
// cancelled context).
func interrupted(ctx context.Context) (int, string) {
	var sc signalCause
	if errors.As(context.Cause(ctx), &sc) {
		return exitCode(sc.sig), signalName(sc.sig)
	}
	return exitInterrupted, "SIGINT"
}

// gcPercent is the garbage collector's GOGC setting unless the GOGC
// environment variable is set: a collection starts when the heap has grown
// by 10 % since the last, instead of the default 100 %, so that the heap
// stays near the live data rather than growing to twice its size. The
// large arrays of svclust (data, labels, strip) hold no pointers, so a
// collection costs little: fit on 10⁶ points, fit on Shuttle and tune on
// Jain took the same time, within the noise of repeated runs, while the
// peak resident memory of the first fell from 72 MB to 54 MB
// (BENCHMARKS.md).
const gcPercent = 10

func main() {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(gcPercent)
	}
	ctx, cancel := context.WithCancelCause(context.Background())
	sigs := make(chan os.Signal, 1)
	for _, sig := range stopSignals {
		// A signal ignored at start stays ignored: nohup ignores SIGHUP,
		// and a shell script's background jobs SIGINT, for them to
		// survive it; Notify would end that.
		if !signal.Ignored(sig) {
			signal.Notify(sigs, sig)
		}
	}
	go func() {
		// tune, demo and reproduce stop between settings when ctx is
		// cancelled, and fit -stream between chunks of rows; fit without
		// -stream, predict and score spend their time in library calls that
		// do not look at it. Outputs are written by rename, and the
		// temporary files not yet renamed are removed, so exiting here
		// never leaves a partial output file or a temporary one.
		sig := <-sigs
		cancel(signalCause{sig})
		time.Sleep(interruptGrace)
		atomicfile.RemoveTemporary()
		fmt.Fprintf(os.Stderr, "svclust: interrupted by %s\n", signalName(sig))
		os.Exit(exitCode(sig))
	}()
	code := run(ctx, os.Stdout, os.Stderr, os.Args[1:])
	signal.Stop(sigs)
	os.Exit(code)
}

// run runs the command line args (without the program name) and returns
// the exit status: 0 on success, 1 on an error, 2 on a usage error. A panic
// is reported as an internal error with status 1, never as a stack trace.
func run(ctx context.Context, stdout, stderr io.Writer, args []string) (code int) {
	return runCommands(ctx, stdout, stderr, args, commands())
}

// runCommands is run with the commands cmds.
func runCommands(ctx context.Context, stdout, stderr io.Writer, args []string, cmds []*Command) (code int) {
	// A summary printed with fmt.Fprintf, whose error nobody checks, must
	// still fail the run when standard output cannot take it (a full
	// disk): out keeps the first error of every write.
	stdoutFile, _ := stdout.(*os.File)
	out := &errWriter{w: stdout}
	stdout = out
	defer func() {
		if code == 0 && out.err != nil {
			name := "svclust"
			if len(args) > 0 {
				name += " " + args[0]
			}
			fmt.Fprintf(stderr, "%s: writing standard output: %v\n", name, out.err)
			code = 1
		}
	}()
	defer func() {
		if r := recover(); r != nil {
			fmt.Fprintf(stderr, "svclust: internal error: %v\n", r)
			if os.Getenv("SVCLUST_TRACEBACK") != "" {
				stderr.Write(debug.Stack())
			}
			code = 1
		}
	}()
	if len(args) == 0 {
		printCommands(stderr, cmds)
		return 2
	}
	switch args[0] {
	case "-h", "-help", "--help":
		printCommands(stdout, cmds)
		return 0
	case "help":
		return help(stdout, stderr, cmds, args[1:])
	}
	for _, c := range cmds {
		if c.Name() != args[0] {
			continue
		}
		e := &env{stdout: stdout, stderr: stderr, cmd: c, ctx: ctx, stdoutFile: stdoutFile}
		c.Flag.SetOutput(stderr)
		c.Flag.Usage = func() { printUsage(stderr, c) }
		pos, err := parseArgs(c.Flag, args[1:])
		if errors.Is(err, flag.ErrHelp) {
			printUsage(stderr, c)
			return 0
		}
		if err != nil {
			fmt.Fprintf(stderr, "svclust %s: %s\n", c.Name(), err)
			return 2
		}
		err = c.Run(ctx, e, pos)
		if err == nil {
			return 0
		}
		if ctx.Err() != nil {
			code, sig := interrupted(ctx)
			fmt.Fprintf(stderr, "svclust %s: interrupted by %s\n", c.Name(), sig)
			return code
		}
		// Library errors carry their package prefix; the command name
		// replaces it.
		msg := strings.TrimPrefix(err.Error(), "svclust: ")
		fmt.Fprintf(stderr, "svclust %s: %s\n", c.Name(), msg)
		var ue *usageError
		if errors.As(err, &ue) {
			fmt.Fprintf(stderr, "usage: svclust %s\nRun 'svclust help %s' for details.\n", c.UsageLine, c.Name())
			return 2
		}
		return 1
	}
	hint := ""
	best := max(1, len(args[0])/3) + 1
	for _, c := range cmds {
		if d := editDistance(args[0], c.Name()); d < best {
			best, hint = d, fmt.Sprintf(": did you mean %s?", c.Name())
		}
	}
	fmt.Fprintf(stderr, "svclust: unknown command %q%s\nRun 'svclust help' for usage.\n", args[0], hint)
	return 2
}

// errWriter passes writes to w until one fails, then fails every later
// write with that first error, which it keeps in err.
type errWriter struct {
	w   io.Writer
	err error
}

func (e *errWriter) Write(p []byte) (int, error) {
	if e.err != nil {
		return 0, e.err
	}
	n, err := e.w.Write(p)
	if err != nil {
		e.err = err
	}
	return n, err
}

func help(stdout, stderr io.Writer, cmds []*Command, args []string) int {
	if len(args) == 0 {
		printCommands(stdout, cmds)
		return 0
	}
	if len(args) > 1 {
		fmt.Fprintf(stderr, "usage: svclust help [command]\n")
		return 2
	}
	for _, c := range cmds {
		if c.Name() == args[0] {
			printUsage(stdout, c)
			fmt.Fprintf(stdout, "\n%s\n", strings.TrimSpace(c.Long))
			return 0
		}
	}
	fmt.Fprintf(stderr, "svclust help %s: unknown command\nRun 'svclust help' for usage.\n", args[0])
	return 2
}

func printCommands(w io.Writer, cmds []*Command) {
	fmt.Fprintf(w, "Svclust clusters data by support vector clustering with a budget.\n\n")
	fmt.Fprintf(w, "Usage:\n\n\tsvclust <command> [flags] [arguments]\n\nThe commands are:\n\n")
	for _, c := range cmds {
		fmt.Fprintf(w, "\t%-8s %s\n", c.Name(), c.Short)
	}
	fmt.Fprintf(w, "\nRun 'svclust help <command>' for more about a command.\n")
}

// printUsage prints the synopsis and the flags of c.
func printUsage(w io.Writer, c *Command) {
	fmt.Fprintf(w, "usage: svclust %s\n", c.UsageLine)
	if hasFlags(c.Flag) {
		fmt.Fprintf(w, "\nFlags:\n")
		shown := flag.NewFlagSet(c.Name(), flag.ContinueOnError)
		shown.SetOutput(w)
		c.Flag.VisitAll(func(f *flag.Flag) {
			if !deprecated(f) {
				shown.Var(f.Value, f.Name, f.Usage)
				shown.Lookup(f.Name).DefValue = f.DefValue
			}
		})
		shown.PrintDefaults()
	}
}

// deprecated reports whether f is the old name of a flag, which works but
// is left out of the usage: its usage is "deprecated: " and the new name.
func deprecated(f *flag.Flag) bool { return strings.HasPrefix(f.Usage, "deprecated: ") }

func hasFlags(fs *flag.FlagSet) bool {
	n := 0
	fs.VisitAll(func(*flag.Flag) { n++ })
	return n > 0
}

// configError turns a bad setting in err, a *settings.Error or a
// *svclust.ConfigError (whose field names its flag), into a usage error,
// and returns other errors unchanged.
func configError(err error) error {
	err = settings.FlagError(err)
	var se *settings.Error
	if errors.As(err, &se) {
		return &usageError{se.Error()}
	}
	return err
}

// oneArg returns the single DATA argument.
func oneArg(args []string) (string, error) {
	switch len(args) {
	case 0:
		return "", usagef("missing DATA argument (a CSV file, or - for standard input)")
	case 1:
		return args[0], nil
	}
	return "", usagef("want one DATA argument, got %d: %s", len(args), strings.Join(args, " "))
}
