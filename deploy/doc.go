// Package deploy holds what a host installs beside the binary:
// lexio.service, the systemd unit, whose tests check it with
// systemd-analyze. It has no code; it knows nothing of the daemon's
// packages, only of `lexio serve`'s command line and signals.
package deploy
