package config

import "net"

// Metrics is the host's view of the daemon: /metrics for Prometheus and
// /healthz, on a listener of their own, off unless Listen is set.
type Metrics struct {
	// Listen is the address the metrics listen on, such as
	// "127.0.0.1:9464"; "" is off.
	Listen string `toml:"listen"`
}

// On reports whether the metrics are served.
func (m Metrics) On() bool { return m.Listen != "" }

// validate checks [metrics]: a listen address with a port, not the web
// side's.
func (m Metrics) validate(web Web, bad func(string, ...any)) {
	if m.Listen == "" {
		return
	}
	if _, port, err := net.SplitHostPort(m.Listen); err != nil || port == "" {
		bad("metrics.listen %q: want host:port, like 127.0.0.1:9464", m.Listen)
	} else if m.Listen == web.Listen && port != "0" {
		bad("metrics.listen %q is web.listen too: give the metrics a port of their own", m.Listen)
	}
}
