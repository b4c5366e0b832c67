//go:build !unix

package wazeroengine

import "time"

func cpuTime() time.Duration { return 0 }
