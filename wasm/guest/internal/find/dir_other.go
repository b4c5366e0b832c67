//go:build !wasip1

package find

import "os"

// readDirents reads dir through os.
func readDirents(dir string) ([]dirent, error) {
	d, err := os.Open(dir)
	if err != nil {
		return nil, err
	}
	defer d.Close()
	list, err := d.ReadDir(-1)
	ents := make([]dirent, len(list))
	for i, e := range list {
		ents[i] = dirent{name: e.Name(), typ: e.Type()}
	}
	return ents, err
}
