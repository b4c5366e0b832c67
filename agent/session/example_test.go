package session_test

import (
	"context"
	"fmt"
	"log"
	"time"

	"github.com/wasmsand/wasmsand/agent/session"
	"github.com/wasmsand/wasmsand/sandbox"
)

// Each client gets its own sandbox, found again by its session ID.
func Example() {
	ctx := context.Background()
	m, err := session.NewManager(session.Config{
		Sandbox:     sandbox.Options{Timeout: 10 * time.Second, FSLimit: 16 << 20},
		MaxSessions: 100,
		IdleTimeout: 15 * time.Minute,
	})
	if err != nil {
		log.Fatal(err)
	}
	defer m.Close(ctx)

	for _, id := range []string{"alice", "bob", "alice"} {
		s, release, err := m.Acquire(ctx, id)
		if err != nil {
			log.Fatal(err)
		}
		res, _ := s.Sandbox().Run(ctx, `n=$((n+1)); echo "`+id+` $n"`)
		fmt.Print(string(res.Stdout))
		release()
	}
	fmt.Println(m.Stats().Live, "sessions")
	// Output:
	// alice 1
	// bob 1
	// alice 2
	// 2 sessions
}
