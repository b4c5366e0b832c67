//go:build !unix

package hostdir

const (
	oNoFollow  = 0
	oNonblock  = 0
	oDirectory = 0
)
