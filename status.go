package svclust

import "fmt"

// Status tells why training stopped. No status is an error.
type Status int

const (
	// NotTrained is the status of a Model that Train did not produce.
	NotTrained Status = iota
	// Converged means the paper's stopping rule ‖w_{t+1} − w_t‖ ≤ θ held.
	Converged
	// IterationLimit means Config.MaxIter steps ran without the rule holding.
	IterationLimit
)

var statusNames = [...]string{"not trained", "converged", "iteration limit"}

// String returns the status in words, such as "converged".
func (s Status) String() string {
	if s < 0 || int(s) >= len(statusNames) {
		return "unknown status"
	}
	return statusNames[s]
}

// ParseStatus returns the Status whose String is name, or an error.
func ParseStatus(name string) (Status, error) {
	for s, n := range statusNames {
		if n == name {
			return Status(s), nil
		}
	}
	return 0, fmt.Errorf("svclust: unknown status %q", name)
}
