// Package s3store keeps sandbox snapshots in an S3-compatible object store
// (AWS S3, MinIO, Ceph, R2, ...), through the minio-go client: a
// sandbox.Store that any number of processes can share, so that a session
// saved by one server replica is restored by another.
//
// Each snapshot is one object, PREFIX + NAME + ".wsbx". A Put uploads the
// whole object before it becomes visible, so a reader sees the old bytes or
// the new, never a mix, and a failed Put leaves the old object in place.
// Concurrent Puts of one name are last-writer-wins.
package s3store

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"strings"

	"github.com/minio/minio-go/v7"
	"github.com/wasmsand/wasmsand/sandbox"
)

// ext ends the object names, as platform/native's DirStore ends its files.
const ext = ".wsbx"

// Store is a sandbox.Store in one bucket, under a prefix.
type Store struct {
	client *minio.Client
	bucket string
	prefix string
}

var _ sandbox.Store = (*Store)(nil)

// New returns a Store of the objects under prefix (such as "sessions/";
// "" for the whole bucket) in bucket, through client. The bucket must
// exist; CreateBucket makes it.
func New(client *minio.Client, bucket, prefix string) *Store {
	return &Store{client: client, bucket: bucket, prefix: prefix}
}

// CreateBucket makes the store's bucket if it does not exist yet.
func (s *Store) CreateBucket(ctx context.Context) error {
	ok, err := s.client.BucketExists(ctx, s.bucket)
	if err == nil && !ok {
		err = s.client.MakeBucket(ctx, s.bucket, minio.MakeBucketOptions{})
		if code := minio.ToErrorResponse(err).Code; code == "BucketAlreadyOwnedByYou" || code == "BucketAlreadyExists" {
			err = nil
		}
	}
	if err != nil {
		return &sandbox.StoreError{Op: "create bucket", Name: s.bucket, Err: err}
	}
	return nil
}

func (s *Store) key(name string) string { return s.prefix + name + ext }

// storeErr wraps err of op on name, mapping S3's answers to the errors of
// sandbox.Store.
func storeErr(op, name string, err error) error {
	resp := minio.ToErrorResponse(err)
	switch {
	case resp.Code == minio.NoSuchKey || resp.StatusCode == http.StatusNotFound && resp.Code != minio.NoSuchBucket:
		err = errors.Join(sandbox.ErrNotFound, err)
	case resp.Code == "QuotaExceeded" || resp.Code == "XMinioAdminBucketQuotaExceeded" || resp.Code == "XMinioStorageFull" || resp.StatusCode == http.StatusInsufficientStorage:
		err = errors.Join(sandbox.ErrQuota, err)
	}
	return &sandbox.StoreError{Op: op, Name: name, Err: err}
}

// Put stores data under name.
func (s *Store) Put(ctx context.Context, name string, data []byte) error {
	if err := sandbox.CheckName(name); err != nil {
		return &sandbox.StoreError{Op: "put", Name: name, Err: err}
	}
	_, err := s.client.PutObject(ctx, s.bucket, s.key(name), bytes.NewReader(data), int64(len(data)),
		minio.PutObjectOptions{ContentType: "application/octet-stream"})
	if err != nil {
		return storeErr("put", name, err)
	}
	return nil
}

// Get returns the snapshot stored under name.
func (s *Store) Get(ctx context.Context, name string) ([]byte, error) {
	if err := sandbox.CheckName(name); err != nil {
		return nil, &sandbox.StoreError{Op: "get", Name: name, Err: err}
	}
	obj, err := s.client.GetObject(ctx, s.bucket, s.key(name), minio.GetObjectOptions{})
	if err != nil {
		return nil, storeErr("get", name, err)
	}
	defer obj.Close()
	b, err := io.ReadAll(obj) // the request is made here: a missing object fails now
	if err != nil {
		return nil, storeErr("get", name, err)
	}
	return b, nil
}

// List lists the snapshots under the prefix, by name.
func (s *Store) List(ctx context.Context) ([]sandbox.StoreEntry, error) {
	var out []sandbox.StoreEntry
	for obj := range s.client.ListObjects(ctx, s.bucket, minio.ListObjectsOptions{Prefix: s.prefix}) {
		if obj.Err != nil {
			return nil, storeErr("list", "", obj.Err)
		}
		name, ok := strings.CutSuffix(strings.TrimPrefix(obj.Key, s.prefix), ext)
		if !ok || sandbox.CheckName(name) != nil {
			continue // not a snapshot of this store (a deeper prefix, another file)
		}
		out = append(out, sandbox.StoreEntry{Name: name, Size: obj.Size, Modified: obj.LastModified})
	}
	return out, nil // ListObjects returns keys in order
}

// Delete removes the snapshot stored under name. S3 deletes are idempotent,
// so Delete asks first whether the object exists, to return ErrNotFound as
// a sandbox.Store must.
func (s *Store) Delete(ctx context.Context, name string) error {
	if err := sandbox.CheckName(name); err != nil {
		return &sandbox.StoreError{Op: "delete", Name: name, Err: err}
	}
	if _, err := s.client.StatObject(ctx, s.bucket, s.key(name), minio.StatObjectOptions{}); err != nil {
		return storeErr("delete", name, err)
	}
	if err := s.client.RemoveObject(ctx, s.bucket, s.key(name), minio.RemoveObjectOptions{}); err != nil {
		return storeErr("delete", name, err)
	}
	return nil
}
