package proc

import (
	"reflect"
	"testing"
	"time"
)

func TestParseList(t *testing.T) {
	data := []byte("1 0 1000000000 0 0 1\nbash\x007 1 2000000000 5000 65536 3\nsleep\x005\x00a b\x00")
	got, err := parseList(data)
	if err != nil {
		t.Fatal(err)
	}
	want := []Info{
		{Pid: 1, PPid: 0, Start: time.Unix(1, 0), Args: []string{"bash"}},
		{Pid: 7, PPid: 1, Start: time.Unix(2, 0), CPU: 5000, Mem: 65536, Args: []string{"sleep", "5", "a b"}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("parseList:\n got %+v\nwant %+v", got, want)
	}
	for _, bad := range []string{"1 0 1 0 0\nbash\x00", "1 0 1 0 0 2\nbash\x00", "1 0 x 0 0 0\n", "1 0 1 0 0 0"} {
		if _, err := parseList([]byte(bad)); err == nil {
			t.Errorf("parseList(%q): no error", bad)
		}
	}
}
