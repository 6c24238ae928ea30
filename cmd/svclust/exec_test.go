package main

import (
	"os"
	"os/exec"
	"testing"
)

// execEnv, set to 1 in the environment, makes the test binary run as
// svclust itself, so that tests can run the command in a child process
// (to kill it or signal it) without building it.
const execEnv = "SVCLUST_TEST_AS_MAIN"

func TestMain(m *testing.M) {
	if os.Getenv(execEnv) == "1" {
		main() // exits
	}
	os.Exit(m.Run())
}

// svclustCmd returns a command that runs svclust with args in a child
// process.
func svclustCmd(t *testing.T, args ...string) *exec.Cmd {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Skipf("cannot re-run the test binary: %v", err)
	}
	cmd := exec.Command(exe, args...)
	cmd.Env = append(os.Environ(), execEnv+"=1")
	return cmd
}
