package main

import (
	"context"
	"strings"

	"github.com/wasmsand/wasmsand/platform/native"
	"github.com/wasmsand/wasmsand/sandbox"
)

// openStore opens the snapshot store of --state: a directory, or an
// S3-compatible bucket given as s3://BUCKET[/PREFIX].
func openStore(ctx context.Context, spec string) (sandbox.Store, error) {
	if strings.HasPrefix(spec, "s3://") {
		return openS3Store(ctx, spec)
	}
	return native.DirStore(spec), nil
}
