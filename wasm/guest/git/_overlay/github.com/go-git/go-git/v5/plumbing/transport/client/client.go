// This file is not part of wasmsand's packages: the guest build overlays it
// on go-git's plumbing/transport/client/client.go (vendored into a scratch
// copy at build time). The sandbox's git installs its own http and https
// transport (over the "wasmsand" host calls) and an in-process one for
// local paths; go-git's table of default protocols would link its http
// (net/http, crypto/tls), ssh:// (golang.org/x/crypto/ssh) and git://
// clients into the module for nothing: 3.2 MB gzipped with them, 2.6 MB
// without. The API is go-git's: Protocols, InstallProtocol, NewClient.

package client

import (
	"fmt"

	"github.com/go-git/go-git/v5/plumbing/transport"
)

// Protocols are the installed protocols, by URL scheme.
var Protocols = map[string]transport.Transport{}

// InstallProtocol sets the transport of a scheme (nil removes it).
func InstallProtocol(scheme string, c transport.Transport) {
	if c == nil {
		delete(Protocols, scheme)
		return
	}
	Protocols[scheme] = c
}

// NewClient returns the transport of the endpoint's scheme.
func NewClient(endpoint *transport.Endpoint) (transport.Transport, error) {
	c, ok := Protocols[endpoint.Protocol]
	if !ok || c == nil {
		return nil, fmt.Errorf("unsupported scheme %q", endpoint.Protocol)
	}
	return c, nil
}
