package config

import (
	"fmt"
	"net"
	"strings"
)

// loopback reports whether host names this machine alone: an address of
// 127.0.0.0/8, ::1, or the name localhost. Any other name may resolve
// anywhere; "" (every interface), 0.0.0.0 and :: reach beyond it.
func loopback(host string) bool {
	if strings.EqualFold(strings.TrimSuffix(host, "."), "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// hostOf is the host of a host:port address, or the address itself when
// it has no port.
func hostOf(addr string) string {
	if host, _, err := net.SplitHostPort(addr); err == nil {
		return host
	}
	return addr
}

// validateClearText refuses tls = "none" to a mail server beyond this
// machine: the login, and the mail, would cross the network in clear.
// "none" is for a server on the loopback (tests, a local relay). The
// embedded server's connections are its own and never leave the machine.
func (c *Config) validateClearText(bad func(string, ...any)) {
	for _, s := range []struct{ key, addr, tls, fix string }{
		{"imap", c.IMAP.Address, c.IMAP.TLS, `tls = "tls" (port 993) or "starttls" (port 143)`},
		{"smtp", c.SMTP.Address, c.SMTP.TLS, `tls = "starttls" (port 587) or "tls" (port 465)`},
	} {
		if s.tls != "none" || s.addr == "" || loopback(hostOf(s.addr)) {
			continue
		}
		bad("%s.tls \"none\" to %s: the login and the mail would cross the network in clear; set %s, "+
			"or keep \"none\" for a server on this machine only (127.0.0.1, ::1, localhost)", s.key, s.addr, s.fix)
	}
}

// Warnings names what the configuration allows but a host should look
// at, a line each: a [web] or [metrics] listener that binds beyond the
// loopback. check-config prints them and serve logs them; neither fails.
func (c *Config) Warnings() []string {
	var ws []string
	for _, l := range []struct{ key, addr, what string }{
		{"web.listen", c.Web.Listen, "the pages are meant to sit behind a reverse proxy that adds TLS"},
		{"metrics.listen", c.Metrics.Listen, "/metrics and /healthz have no authentication"},
	} {
		if l.addr == "" {
			continue
		}
		host, port, err := net.SplitHostPort(l.addr)
		if err != nil || loopback(host) {
			continue // a bad address is Validate's to name
		}
		ws = append(ws, fmt.Sprintf("%s %q listens beyond this machine (%s): %s; bind 127.0.0.1:%s unless that network is trusted",
			l.key, l.addr, reach(host), l.what, port))
	}
	return ws
}

// reach says who may connect to a listener bound to host, not loopback.
func reach(host string) string {
	switch ip := net.ParseIP(host); {
	case host == "" || ip != nil && ip.IsUnspecified():
		return "every interface"
	case ip == nil:
		return "whatever " + host + " resolves to"
	case ip.IsPrivate():
		return "a private network"
	}
	return "a public address"
}
