package main

import (
	"archive/tar"
	"compress/gzip"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"time"
)

// packTime is the modification time npm pack gives every entry, so the
// tarball depends only on the files.
var packTime = time.Date(1985, 10, 26, 8, 15, 0, 0, time.UTC)

// pack writes dir as an npm package tarball: a gzipped tar whose entries
// are package/PATH, sorted, with fixed times and owners; files in bin/
// are executable.
func pack(dir, tgz string) (err error) {
	if err := os.MkdirAll(filepath.Dir(tgz), 0o755); err != nil {
		return err
	}
	f, err := os.Create(tgz)
	if err != nil {
		return err
	}
	defer func() {
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			os.Remove(tgz)
		}
	}()
	zw, err := gzip.NewWriterLevel(f, gzip.BestCompression)
	if err != nil {
		return err
	}
	tw := tar.NewWriter(zw)
	fsys := os.DirFS(dir)
	err = fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		mode := int64(0o644)
		if path.Dir(p) == "bin" {
			mode = 0o755
		}
		hdr := &tar.Header{
			Typeflag: tar.TypeReg,
			Name:     path.Join("package", p),
			Size:     info.Size(),
			Mode:     mode,
			ModTime:  packTime,
			Format:   tar.FormatPAX,
		}
		if err := tw.WriteHeader(hdr); err != nil {
			return err
		}
		b, err := fs.ReadFile(fsys, p)
		if err != nil {
			return err
		}
		_, err = tw.Write(b)
		return err
	})
	if err != nil {
		return err
	}
	if err := tw.Close(); err != nil {
		return err
	}
	return zw.Close()
}
