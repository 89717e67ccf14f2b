// Package sdnotify tells the service manager how the daemon is doing
// (systemd's notify protocol, for Type=notify): ready, reloading,
// stopping, in datagrams on $NOTIFY_SOCKET. Without a socket it does
// nothing, so the daemon runs the same under systemd and elsewhere. It
// knows nothing of what the daemon does or when it is ready.
package sdnotify

import (
	"errors"
	"fmt"
	"net"
	"strings"
)

// Notifier sends states to one notify socket. The zero value and a
// Notifier of an empty socket send nothing.
type Notifier struct {
	socket string
}

// New returns a Notifier for socket, the value of $NOTIFY_SOCKET: a path,
// or an abstract socket name starting with '@'; "" sends nothing.
func New(socket string) *Notifier {
	return &Notifier{socket: socket}
}

// On reports whether states are sent anywhere.
func (n *Notifier) On() bool { return n != nil && n.socket != "" }

// Ready says that the service is up: once at start, and again when a
// reload ended (whether or not it succeeded).
func (n *Notifier) Ready() error { return n.Send("READY=1") }

// Reloading says that a reload began; Ready ends it. The monotonic
// clock's reading, where there is one, lets the manager tell this
// reload from an earlier one.
func (n *Notifier) Reloading() error {
	if usec, ok := monotonicUsec(); ok {
		return n.Send("RELOADING=1", fmt.Sprintf("MONOTONIC_USEC=%d", usec))
	}
	return n.Send("RELOADING=1")
}

// Stopping says that the service is shutting down.
func (n *Notifier) Stopping() error { return n.Send("STOPPING=1") }

// Status sets the one line `systemctl status` shows.
func (n *Notifier) Status(line string) error {
	return n.Send("STATUS=" + strings.ReplaceAll(line, "\n", " "))
}

// Send sends the assignments (such as "READY=1") in one datagram.
func (n *Notifier) Send(states ...string) error {
	if !n.On() {
		return nil
	}
	if !strings.HasPrefix(n.socket, "/") && !strings.HasPrefix(n.socket, "@") {
		return fmt.Errorf("sdnotify: NOTIFY_SOCKET %q is neither a path nor an abstract name", n.socket)
	}
	if len(states) == 0 {
		return errors.New("sdnotify: nothing to send")
	}
	// Go reads a leading '@' as Linux's abstract namespace.
	c, err := net.DialUnix("unixgram", nil, &net.UnixAddr{Name: n.socket, Net: "unixgram"})
	if err != nil {
		return fmt.Errorf("sdnotify: %w", err)
	}
	defer c.Close()
	if _, err := c.Write([]byte(strings.Join(states, "\n") + "\n")); err != nil {
		return fmt.Errorf("sdnotify: %w", err)
	}
	return nil
}
