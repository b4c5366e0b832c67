//go:build !unix

package cguest_test

import "time"

// processCPU is not measured here: the ratio to the host is not reported.
func processCPU() time.Duration { return 0 }
