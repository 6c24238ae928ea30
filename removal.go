package svclust

// Removal is the paper's removal strategy (Section 3.3.1): the most
// redundant support vector, [SupportSet.Smallest], is dropped.
type Removal struct{}

var _ Maintainer = Removal{}

// Maintain removes the support vector with the smallest |α|.
func (Removal) Maintain(s *SupportSet) { s.Remove(s.Smallest()) }
