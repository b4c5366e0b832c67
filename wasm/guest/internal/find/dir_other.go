//go:build !wasip1

package find

import "os"

// readDirents reads dir through os into l.
func readDirents(dir string, l *listing) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	list, err := d.ReadDir(-1)
	for _, e := range list {
		l.ents = append(l.ents, dirent{name: e.Name(), typ: e.Type()})
	}
	return err
}
