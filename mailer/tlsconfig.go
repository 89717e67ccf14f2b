package mailer

import (
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"os"
)

// TLSMode says how a connection is protected.
type TLSMode string

const (
	// TLSNone sends everything in clear; for tests and loopback only.
	TLSNone TLSMode = "none"
	// TLSStartTLSOpportunistic upgrades with STARTTLS when offered (SMTP only).
	TLSStartTLSOpportunistic TLSMode = "opportunistic"
	// TLSStartTLS requires a STARTTLS upgrade.
	TLSStartTLS TLSMode = "starttls"
	// TLSImplicit speaks TLS from the first byte (IMAPS 993, SMTPS 465).
	TLSImplicit TLSMode = "tls"
)

// tlsConfig builds a client TLS configuration for host; caFile, when set,
// replaces the system roots with the certificates it holds (PEM).
func tlsConfig(host, caFile string) (*tls.Config, error) {
	cfg := &tls.Config{ServerName: host, MinVersion: tls.VersionTLS12}
	if caFile == "" {
		return cfg, nil
	}
	pem, err := os.ReadFile(caFile)
	if err != nil {
		return nil, fmt.Errorf("mailer: read CA file: %w", err)
	}
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(pem) {
		return nil, fmt.Errorf("mailer: CA file %s: %w", caFile, ErrNoCertificates)
	}
	cfg.RootCAs = pool
	return cfg, nil
}
