//go:build !linux && !wasip1

package touch

import (
	"io/fs"
	"time"
)

func atimeOf(fs.FileInfo) (time.Time, error) { return time.Time{}, errNoAtime }
