// Package miniotest runs a real MinIO server on 127.0.0.1 for tests of
// S3-compatible stores.
//
// The server is built from the Go module proxy at Version into the user
// cache directory, once, by the command Start names when the binary is
// missing (building it takes minutes, too long for a test to do itself).
package miniotest

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/minio/minio-go/v7"
	"github.com/minio/minio-go/v7/pkg/credentials"
)

// Version is the MinIO server built for tests: what
// github.com/minio/minio@latest resolved to.
const Version = "v0.0.0-20260212201848-7aac2a2c5b7c"

// Server is a running MinIO server.
type Server struct {
	Endpoint  string // host:port, plain HTTP
	AccessKey string
	SecretKey string
}

// Binary returns where the MinIO binary of Version is cached.
func Binary() (string, error) {
	dir, err := os.UserCacheDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(dir, "wasmsand", "minio", Version, "minio"), nil
}

// BuildCommand is the shell command that builds the binary Binary names.
func BuildCommand() string {
	bin, err := Binary()
	if err != nil {
		return err.Error()
	}
	return fmt.Sprintf("GOBIN=%s go install github.com/minio/minio@%s", filepath.Dir(bin), Version)
}

// Start starts a MinIO server with an empty data directory of t's and
// stops it when t ends. It skips t when the binary is not built.
func Start(t testing.TB) *Server {
	t.Helper()
	bin, err := Binary()
	if err != nil {
		t.Skipf("miniotest: %v", err)
	}
	if _, err := os.Stat(bin); err != nil {
		msg := fmt.Sprintf("miniotest: no MinIO server at %s; build it (several minutes) with:\n\t%s", bin, BuildCommand())
		if os.Getenv("CI") == "true" {
			t.Fatal(msg + "\n(.ci/run builds it; under CI=true the S3 tests must run)")
		}
		t.Skip(msg)
	}
	port := func() int {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		defer ln.Close()
		return ln.Addr().(*net.TCPAddr).Port
	}
	s := &Server{
		Endpoint:  fmt.Sprintf("127.0.0.1:%d", port()),
		AccessKey: "wasmsandtest",
		SecretKey: "wasmsandtest-secret",
	}
	cmd := exec.Command(bin, "server", "--quiet", "--address", s.Endpoint,
		"--console-address", fmt.Sprintf("127.0.0.1:%d", port()), t.TempDir())
	cmd.Env = append(os.Environ(),
		"MINIO_ROOT_USER="+s.AccessKey, "MINIO_ROOT_PASSWORD="+s.SecretKey,
		"MINIO_BROWSER=off", "MINIO_UPDATE=off", "HOME="+t.TempDir())
	logf, err := os.Create(filepath.Join(t.TempDir(), "minio.log"))
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stdout, cmd.Stderr = logf, logf
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	t.Cleanup(func() {
		cmd.Process.Kill()
		<-exited
		logf.Close()
	})
	start := time.Now()
	deadline := start.Add(90 * time.Second) // a loaded machine is slow to start it
	for {
		// The health check answers before the object layer is up ("Server
		// not initialized yet"): ready means a signed request succeeds.
		resp, err := http.Get("http://" + s.Endpoint + "/minio/health/ready")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK && s.answers() {
				t.Logf("miniotest: MinIO %s ready on %s in %v", Version, s.Endpoint, time.Since(start).Round(time.Millisecond))
				return s
			}
		}
		select {
		case err := <-exited:
			log, _ := os.ReadFile(logf.Name())
			t.Fatalf("miniotest: the server exited: %v\n%s", err, log)
		case <-time.After(100 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			log, _ := os.ReadFile(logf.Name())
			t.Fatalf("miniotest: the server is not ready after 90s\n%s", log)
		}
	}
}

// answers reports whether the server lists its buckets.
func (s *Server) answers() bool {
	c, err := minio.New(s.Endpoint, &minio.Options{Creds: credentials.NewStaticV4(s.AccessKey, s.SecretKey, ""), MaxRetries: 1})
	if err != nil {
		return false
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_, err = c.ListBuckets(ctx)
	return err == nil
}

// Client returns a client of the server.
func (s *Server) Client(t testing.TB) *minio.Client {
	c, err := minio.New(s.Endpoint, &minio.Options{Creds: credentials.NewStaticV4(s.AccessKey, s.SecretKey, "")})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// MakeBucket makes a bucket.
func (s *Server) MakeBucket(t testing.TB, name string) {
	t.Helper()
	if err := s.Client(t).MakeBucket(context.Background(), name, minio.MakeBucketOptions{}); err != nil {
		t.Fatal(errors.Join(errors.New("miniotest: making bucket "+name), err))
	}
}
