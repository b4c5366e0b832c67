package git

import (
	"fmt"

	gogit "github.com/go-git/go-git/v5"

	"github.com/wasmsand/wasmsand/wasm/guest/internal/tool"
)

func Main(env *tool.Env) int {
	_, err := gogit.PlainInit(".", false)
	fmt.Fprintln(env.Out(), err)
	return 0
}
