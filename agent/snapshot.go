package agent

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/wasmsand/wasmsand/sandbox"
)

// The snapshot tools.
const (
	ToolSnapshot = "snapshot"
	ToolRestore  = "restore"
)

var (
	schemaSnapshot = json.RawMessage(`{"type":"object","properties":{` +
		`"name":{"type":"string","description":"A name for the snapshot: letters, digits, '_' and '-'. Optional; one is made up when missing. Saving under a name used before replaces that snapshot."}},` +
		`"additionalProperties":false}`)
	schemaRestore = json.RawMessage(`{"type":"object","properties":{` +
		`"name":{"type":"string","description":"The name a snapshot call returned."},` +
		`"snapshot":{"type":"string","description":"The base64 snapshot a snapshot call returned, when it returned one instead of a name."}},` +
		`"additionalProperties":false}`)
)

const (
	descSnapshot = "Save the whole state of the sandbox — files, shell variables and functions, working directory — as a snapshot to come back to later with restore, e.g. before a risky change. "
	descRestore  = "Put the sandbox back in the state of a snapshot taken earlier: files, shell variables and functions and working directory become what they were; everything since is lost. Give the name (or the base64 snapshot) that snapshot returned."
)

func snapshotDefs(o Options) []Def {
	d := descSnapshot
	if o.Store != nil {
		d += "Returns the snapshot's name; snapshots are kept with this session."
	} else {
		d += "Returns the snapshot as base64 text to give to restore."
	}
	return []Def{
		{Tool{ToolSnapshot, d, schemaSnapshot}, callSnapshot},
		{Tool{ToolRestore, descRestore, schemaRestore}, callRestore},
	}
}

// SnapshotResult is what snapshot returns: the name under which it is
// stored when the Toolset has a Store, else the snapshot itself.
type SnapshotResult struct {
	Name     string `json:"name,omitempty"`
	Snapshot string `json:"snapshot,omitempty"` // base64
	Size     int    `json:"size"`               // bytes
}

// RestoreResult is what restore returns.
type RestoreResult struct {
	Restored string `json:"restored"` // the name, or "snapshot" for base64
}

// checkSnapshotName checks a name given to the snapshot tools: those of
// CheckName without '.', so that Options.SnapshotPrefix + name stays
// unambiguous.
func checkSnapshotName(tool, name string) error {
	if strings.Contains(name, ".") || sandbox.CheckName(name) != nil {
		return argErrorf("%s: bad name %q: 1 to 64 letters, digits, '_' and '-'", tool, name)
	}
	if len(name) > 64 {
		return argErrorf("%s: name %q is longer than 64 bytes", tool, name)
	}
	return nil
}

func callSnapshot(ctx context.Context, t *Toolset, args json.RawMessage) (any, error) {
	var a struct {
		Name *string `json:"name"`
	}
	if err := decodeArgs(ToolSnapshot, args, &a); err != nil {
		return nil, err
	}
	b, err := t.Sandbox().Snapshot()
	if err != nil {
		return nil, err
	}
	if t.opts.Store == nil {
		if a.Name != nil {
			return nil, argErrorf("%s: this sandbox has no store to keep named snapshots; call it without a name to get the snapshot back", ToolSnapshot)
		}
		return &SnapshotResult{Snapshot: base64.StdEncoding.EncodeToString(b), Size: len(b)}, nil
	}
	name := time.Now().UTC().Format("20060102-150405.000")
	name = strings.ReplaceAll(name, ".", "-")
	if a.Name != nil {
		name = *a.Name
	}
	if err := checkSnapshotName(ToolSnapshot, name); err != nil {
		return nil, err
	}
	if err := t.opts.Store.Put(ctx, t.opts.SnapshotPrefix+name, b); err != nil {
		return nil, err
	}
	return &SnapshotResult{Name: name, Size: len(b)}, nil
}

func callRestore(ctx context.Context, t *Toolset, args json.RawMessage) (any, error) {
	var a struct {
		Name     *string `json:"name"`
		Snapshot *string `json:"snapshot"`
	}
	if err := decodeArgs(ToolRestore, args, &a); err != nil {
		return nil, err
	}
	if (a.Name == nil) == (a.Snapshot == nil) {
		return nil, argErrorf("%s: give either \"name\" or \"snapshot\"", ToolRestore)
	}
	var b []byte
	what := "snapshot"
	if a.Snapshot != nil {
		var err error
		if b, err = base64.StdEncoding.DecodeString(*a.Snapshot); err != nil {
			return nil, argErrorf("%s: \"snapshot\" is not base64: %v", ToolRestore, err)
		}
	} else {
		if t.opts.Store == nil {
			return nil, argErrorf("%s: this sandbox has no store of named snapshots; give the base64 \"snapshot\"", ToolRestore)
		}
		if err := checkSnapshotName(ToolRestore, *a.Name); err != nil {
			return nil, err
		}
		var err error
		if b, err = t.opts.Store.Get(ctx, t.opts.SnapshotPrefix+*a.Name); err != nil {
			if errors.Is(err, sandbox.ErrNotFound) {
				return nil, &Error{Code: "ENOENT", Message: fmt.Sprintf("%s: no snapshot named %q", ToolRestore, *a.Name)}
			}
			return nil, err
		}
		what = *a.Name
	}
	sb, err := sandbox.Restore(ctx, b, t.opts.Sandbox)
	if err != nil {
		var se *sandbox.SnapshotError
		if errors.As(err, &se) {
			return nil, argErrorf("%s: %v", ToolRestore, err)
		}
		return nil, err
	}
	old := t.Replace(sb)
	if t.opts.Replaced != nil {
		t.opts.Replaced(sb)
	}
	old.Close()
	return &RestoreResult{Restored: what}, nil
}
