package netpolicy

import (
	"net/netip"
	"sync"
)

// blocked returns the ranges a request reaches only through a rule that
// names them: loopback, private, link-local (with the cloud metadata
// address 169.254.169.254), shared (carrier-grade NAT) and unspecified
// addresses. They are parsed on first use, not at init: only the native
// platform asks, and the js/wasm core would otherwise parse them at every
// start (sync.OnceValue would keep all of netip's methods in that core).
func blocked() []netip.Prefix {
	blockedOnce.Do(func() {
		blockedList = []netip.Prefix{
			netip.MustParsePrefix("0.0.0.0/8"),
			netip.MustParsePrefix("10.0.0.0/8"),
			netip.MustParsePrefix("100.64.0.0/10"),
			netip.MustParsePrefix("127.0.0.0/8"),
			netip.MustParsePrefix("169.254.0.0/16"),
			netip.MustParsePrefix("172.16.0.0/12"),
			netip.MustParsePrefix("192.0.0.0/24"),
			netip.MustParsePrefix("192.168.0.0/16"),
			netip.MustParsePrefix("198.18.0.0/15"),
			netip.MustParsePrefix("224.0.0.0/3"), // multicast, reserved, broadcast
			netip.MustParsePrefix("::/128"),
			netip.MustParsePrefix("::1/128"),
			netip.MustParsePrefix("fc00::/7"),
			netip.MustParsePrefix("fe80::/10"),
			netip.MustParsePrefix("ff00::/8"),
		}
	})
	return blockedList
}

var (
	blockedOnce sync.Once
	blockedList []netip.Prefix
)

// IsPrivate reports whether a is an address guests reach only through a
// rule naming it: loopback (127/8, ::1), private (10/8, 172.16/12,
// 192.168/16, fc00::/7), link-local and metadata (169.254/16, fe80::/10),
// and a few more that never belong to a public server (0/8, 100.64/10,
// multicast). IPv4 addresses inside IPv6 (::ffff:a.b.c.d, the NAT64
// prefix 64:ff9b::/96, 6to4 2002::/16) are judged by the IPv4 address.
func IsPrivate(a netip.Addr) bool {
	a = a.Unmap()
	if a.Is6() {
		b := a.As16()
		switch {
		case netip.MustParsePrefix("64:ff9b::/96").Contains(a):
			return IsPrivate(netip.AddrFrom4([4]byte(b[12:16])))
		case netip.MustParsePrefix("2002::/16").Contains(a):
			return IsPrivate(netip.AddrFrom4([4]byte(b[2:6])))
		case netip.MustParsePrefix("::/96").Contains(a) && !a.IsUnspecified() && a != netip.IPv6Loopback():
			return IsPrivate(netip.AddrFrom4([4]byte(b[12:16]))) // IPv4-compatible
		}
	}
	for _, p := range blocked() {
		if p.Contains(a) {
			return true
		}
	}
	return false
}
