// Command gopanic crashes as a buggy program does, after taking some
// memory: a fatal error that is not for want of memory, whose report must
// reach the user.
package main

import "fmt"

var keep [][]byte

func main() {
	for range 4 {
		keep = append(keep, make([]byte, 1<<20))
	}
	var m map[string]int
	fmt.Println("before")
	m["x"] = len(keep) // assignment to entry in nil map
}
