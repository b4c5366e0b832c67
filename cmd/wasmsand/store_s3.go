package main

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"os"
	"strings"

	"github.com/minio/minio-go/v7"
	"github.com/minio/minio-go/v7/pkg/credentials"
	"github.com/wasmsand/wasmsand/sandbox"
	"github.com/wasmsand/wasmsand/sandbox/s3store"
)

// openS3Store opens s3://BUCKET[/PREFIX] at the endpoint of
// WASMSAND_S3_ENDPOINT (an http:// or https:// URL; default AWS), with the
// keys of AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, and makes the
// bucket if it is missing.
func openS3Store(ctx context.Context, spec string) (sandbox.Store, error) {
	bucket, prefix, _ := strings.Cut(strings.TrimPrefix(spec, "s3://"), "/")
	if bucket == "" {
		return nil, fmt.Errorf("%q names no bucket: s3://BUCKET[/PREFIX]", spec)
	}
	if prefix != "" && !strings.HasSuffix(prefix, "/") {
		prefix += "/"
	}
	endpoint := os.Getenv("WASMSAND_S3_ENDPOINT")
	if endpoint == "" {
		endpoint = "https://s3.amazonaws.com"
	}
	u, err := url.Parse(endpoint)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("WASMSAND_S3_ENDPOINT %q: want http://HOST[:PORT] or https://HOST[:PORT]", endpoint)
	}
	key, secret := os.Getenv("AWS_ACCESS_KEY_ID"), os.Getenv("AWS_SECRET_ACCESS_KEY")
	if key == "" || secret == "" {
		return nil, errors.New("an S3 store needs AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY")
	}
	c, err := minio.New(u.Host, &minio.Options{
		Creds:  credentials.NewStaticV4(key, secret, os.Getenv("AWS_SESSION_TOKEN")),
		Secure: u.Scheme == "https",
		Region: os.Getenv("AWS_REGION"),
	})
	if err != nil {
		return nil, err
	}
	st := s3store.New(c, bucket, prefix)
	if err := st.CreateBucket(ctx); err != nil {
		return nil, err
	}
	return st, nil
}
