//go:build !unix && !windows

package load

import "time"

// processCPU is 0 where the system does not tell a process's processor
// time: a load's report then gives none.
func processCPU() time.Duration { return 0 }
