// Command membomb allocates memory until the runtime gives up: a guest
// that must fail on its own without hurting the host.
package main

import "fmt"

func main() {
	var keep [][]byte
	for i := 0; ; i++ {
		b := make([]byte, 16<<20)
		for j := range b {
			b[j] = byte(i)
		}
		keep = append(keep, b)
		if i%8 == 0 {
			fmt.Println(len(keep)*16, "MiB")
		}
	}
}
