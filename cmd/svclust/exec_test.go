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
	// Model files record their creation time; a fixed one lets tests
	// compare the files of two runs byte for byte (TestModelRunInfo checks
	// the time without it). Child processes inherit it.
	os.Setenv("SOURCE_DATE_EPOCH", testEpoch)
	os.Exit(m.Run())
}

// testEpoch is SOURCE_DATE_EPOCH in the tests: 2023-11-14T22:13:20Z.
const testEpoch = "1700000000"

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
