package chrome

import (
	"context"
	"fmt"
	"strings"
	"sync"

	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

// consoleKeep is how many console lines Console keeps.
const consoleKeep = 200

// Console records the tab's console output and uncaught exceptions from
// now on and returns a function giving the last lines, for a failing
// test to show what the page said before it hung or failed.
func Console(ctx context.Context) func() string {
	var mu sync.Mutex
	var lines []string
	add := func(s string) {
		mu.Lock()
		defer mu.Unlock()
		lines = append(lines, s)
		if len(lines) > consoleKeep {
			lines = lines[len(lines)-consoleKeep:]
		}
	}
	err := chromedp.Listen(ctx, func(ev any) {
		switch ev := ev.(type) {
		case *runtime.EventConsoleAPICalled:
			var parts []string
			for _, a := range ev.Args {
				if a.Value != nil {
					parts = append(parts, string(a.Value))
				} else {
					parts = append(parts, a.Description)
				}
			}
			add(fmt.Sprintf("console.%s: %s", ev.Type, strings.Join(parts, " ")))
		case *runtime.EventExceptionThrown:
			d := ev.ExceptionDetails
			msg := d.Text
			if d.Exception != nil && d.Exception.Description != "" {
				msg += " " + d.Exception.Description
			}
			add("exception: " + msg)
		}
	})
	if err != nil {
		add("(not listening to the console: " + err.Error() + ")")
	}
	return func() string {
		mu.Lock()
		defer mu.Unlock()
		if len(lines) == 0 {
			return "(the page's console is empty)"
		}
		return strings.Join(lines, "\n")
	}
}
