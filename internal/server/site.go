package server

import (
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strings"
)

// siteGuard keeps web pages from using the server through a visitor's
// browser: in record and live modes a call spends the real key's quota,
// and a page can send text/plain or form bodies cross-site without a
// preflight. Two checks, for every route and transport (the MCP SDK makes
// the first one itself; this makes it for the others, with a problem):
//
//   - DNS rebinding: a request that arrived on a loopback address must name
//     a loopback host (localhost, 127.0.0.1, [::1]) in its Host header.
//   - Cross-site requests: a request carrying a browser's Origin (or a
//     Sec-Fetch-Site other than same-origin/none) must come from the
//     server's own origin or one in the allow-list. Clients that are not
//     browsers send neither header and are not affected.
type siteGuard struct {
	origins map[string]bool // "scheme://host[:port]", lower case
}

// newSiteGuard parses the allow-list: each entry is an origin
// ("http://localhost:3000", "https://ui.example"), as a browser sends it.
func newSiteGuard(allow []string) (*siteGuard, error) {
	g := &siteGuard{origins: map[string]bool{}}
	for _, a := range allow {
		o, err := parseOrigin(a)
		if err != nil {
			return nil, fmt.Errorf("allowed origin %q: %w", a, err)
		}
		g.origins[o.String()] = true
	}
	return g, nil
}

// CheckOrigin reports whether s is an origin Options.AllowOrigins takes:
// "http://" or "https://", a host, maybe a port, nothing else.
func CheckOrigin(s string) error {
	_, err := parseOrigin(s)
	return err
}

// parseOrigin reads an Origin header value: scheme and host, nothing else.
func parseOrigin(s string) (*url.URL, error) {
	u, err := url.Parse(s)
	switch {
	case err != nil:
		return nil, err
	case u.Scheme != "http" && u.Scheme != "https":
		return nil, fmt.Errorf("scheme must be http or https")
	case u.Host == "" || u.Hostname() == "":
		return nil, fmt.Errorf("no host")
	case u.User != nil || (u.Path != "" && u.Path != "/") || u.RawQuery != "" || u.Fragment != "" || u.Opaque != "":
		return nil, fmt.Errorf("an origin is only scheme://host[:port]")
	}
	return &url.URL{Scheme: strings.ToLower(u.Scheme), Host: strings.ToLower(u.Host)}, nil
}

func (g *siteGuard) wrap(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if p := g.check(r); p != nil {
			refuse(w, p) // at once: the body of a request refused is never read
			return
		}
		next.ServeHTTP(w, r)
	})
}

func (g *siteGuard) check(r *http.Request) *Problem {
	if local, ok := r.Context().Value(http.LocalAddrContextKey).(net.Addr); ok && isLoopbackAddr(local) {
		if !isLoopback(r.Host) {
			return newProblem(http.StatusForbidden, "foreign-host", "Foreign Host header",
				fmt.Sprintf("this server listens on a loopback address and answers only to localhost, not to Host %q", prefix(r.Host, 64)))
		}
	}
	// A browser's own word that the request is not cross-site (pages
	// cannot set Sec-Fetch-Site) settles it, as in http.CrossOriginProtection:
	// it holds behind a proxy that rewrites Host, where Origin would not match.
	origin := r.Header.Get("Origin")
	switch r.Header.Get("Sec-Fetch-Site") {
	case "same-origin", "none":
		return nil
	case "":
		if origin == "" {
			return nil // not a browser
		}
	}
	if o, err := parseOrigin(origin); err == nil {
		if g.origins[o.String()] || strings.EqualFold(o.Host, r.Host) {
			return nil
		}
	}
	return newProblem(http.StatusForbidden, "cross-origin", "Cross-origin request refused",
		fmt.Sprintf("a request from origin %q is refused; start the server with -allow-origin to allow it", prefix(origin, 64)))
}

// isLoopbackAddr is isLoopback of addr.String(), without formatting a
// TCP address.
func isLoopbackAddr(addr net.Addr) bool {
	if a, ok := addr.(*net.TCPAddr); ok {
		ip, ok := netip.AddrFromSlice(a.IP)
		return ok && ip.Unmap().IsLoopback()
	}
	return isLoopback(addr.String())
}

// hostOnly is a Host header without its port (or brackets).
func hostOnly(hostport string) string {
	if h, _, err := net.SplitHostPort(hostport); err == nil {
		return h
	}
	return strings.Trim(hostport, "[]")
}

// isLoopback reports whether a host (or host:port) names the loopback
// interface: "localhost" or a loopback IP. It is the MCP SDK's rule for
// its own check on /mcp, so that /mcp and the other routes agree.
func isLoopback(hostport string) bool {
	h := hostOnly(hostport)
	if h == "localhost" {
		return true
	}
	ip, err := netip.ParseAddr(h)
	return err == nil && ip.IsLoopback()
}
