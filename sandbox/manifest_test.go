package sandbox

import (
	"encoding/json"
	"reflect"
	"testing"
)

// FuzzParseManifest checks that parseManifest reads what json.Unmarshal
// reads, whenever it reads anything.
func FuzzParseManifest(f *testing.F) {
	for _, s := range []string{
		"{}", " { } ", `{"a.wasm": []}`, `{"a.wasm": ["x", "y"], "b.wasm": ["z"]}`,
		"{\n  \"a.wasm\": [\n    \"[\",\n    \"x\"\n  ]\n}\n",
		`{"a.wasm": ["x",]}`, `{"a.wasm": ["x"],}`, `{"a": ["x"] "b": []}`, `{"a": null}`,
		`{"a": ["\u0078"]}`, `{"a": ["é"]}`, `{"a": ["x"]} x`, `{"a": ["x"], "a": ["y"]}`, `[]`, ``, `{"a":[1]}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		got, ok := parseManifest(b)
		if !ok {
			return
		}
		var want map[string][]string
		if err := json.Unmarshal(b, &want); err != nil {
			t.Fatalf("parseManifest read %q, json.Unmarshal: %v", b, err)
		}
		for k, v := range want {
			if v == nil {
				want[k] = []string{}
			}
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("parseManifest(%q) = %v, json.Unmarshal %v", b, got, want)
		}
	})
}

func TestParseManifestBuilt(t *testing.T) {
	b := []byte("{\n  \"archive.wasm\": [\n    \"bunzip2\",\n    \"bzcat\"\n  ],\n  \"sysutils.wasm\": [\n    \"[\",\n    \"arch\"\n  ]\n}")
	m, ok := parseManifest(b)
	if !ok || len(m) != 2 || len(m["sysutils.wasm"]) != 2 || m["sysutils.wasm"][0] != "[" {
		t.Fatalf("parseManifest = %v, %v", m, ok)
	}
}
