package guesttest

import (
	"archive/zip"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"

	"github.com/wasmsand/wasmsand/wasm/binary"
)

// FilesToolsFile and FilesToolsText are the file that the coreutils of
// WriteFilesTools carries, and its contents.
const (
	FilesToolsFile = "/usr/share/e2e/hello.txt"
	FilesToolsText = "hello from the files section\n"
)

// WriteFilesTools makes dir a tools folder (manifest.json, sha256.json and
// coreutils.wasm, for the commands cat and tr) whose coreutils is the one
// in the folder tools with a files section in front, carrying
// FilesToolsFile, as the C guests carry their files (python3's library;
// see sandbox/toolfiles.go). The tools built here carry none, so the
// loaders' handling of files is tested with this one.
func WriteFilesTools(tools, dir string) error {
	mod, err := os.ReadFile(filepath.Join(tools, "coreutils.wasm"))
	if err != nil {
		return err
	}
	var z bytes.Buffer
	zw := zip.NewWriter(&z)
	w, err := zw.CreateHeader(&zip.FileHeader{Name: FilesToolsFile[1:], Method: zip.Store})
	if err == nil {
		_, err = w.Write([]byte(FilesToolsText))
	}
	if err == nil {
		err = zw.Close()
	}
	if err != nil {
		return err
	}
	withFiles := append(binary.AppendCustom(bytes.Clone(mod[:8]), "wasmsand.files", z.Bytes()), mod[8:]...)
	sum := sha256.Sum256(withFiles)
	manifest, err := json.Marshal(map[string][]string{"coreutils.wasm": {"cat", "tr"}})
	if err != nil {
		return err
	}
	digests, err := json.Marshal(map[string]string{"coreutils.wasm": hex.EncodeToString(sum[:])})
	if err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for name, b := range map[string][]byte{"coreutils.wasm": withFiles, "manifest.json": manifest, "sha256.json": digests} {
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			return err
		}
	}
	return nil
}
