package mailer_test

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/lexio-mail/lexio/mailer"
	"github.com/lexio-mail/lexio/mailer/localmail"
)

// testCA makes a CA and a server certificate for 127.0.0.1 and localhost;
// it returns the server's TLS config and the path of the CA's PEM file.
func testCA(t *testing.T) (*tls.Config, string) {
	t.Helper()
	caKey, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	caTmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "lexio test CA"},
		NotBefore: now.Add(-time.Hour), NotAfter: now.Add(time.Hour),
		IsCA: true, BasicConstraintsValid: true, KeyUsage: x509.KeyUsageCertSign,
	}
	caDER, err := x509.CreateCertificate(rand.Reader, caTmpl, caTmpl, &caKey.PublicKey, caKey)
	if err != nil {
		t.Fatal(err)
	}
	ca, _ := x509.ParseCertificate(caDER)
	key, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(2), Subject: pkix.Name{CommonName: "localhost"},
		NotBefore: now.Add(-time.Hour), NotAfter: now.Add(time.Hour),
		DNSNames: []string{"localhost"}, IPAddresses: []net.IP{net.ParseIP("127.0.0.1")},
		KeyUsage: x509.KeyUsageDigitalSignature, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, ca, &key.PublicKey, caKey)
	if err != nil {
		t.Fatal(err)
	}
	caFile := filepath.Join(t.TempDir(), "ca.pem")
	if err := os.WriteFile(caFile, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: caDER}), 0o600); err != nil {
		t.Fatal(err)
	}
	return &tls.Config{Certificates: []tls.Certificate{{Certificate: [][]byte{der}, PrivateKey: key}}}, caFile
}

func TestStartTLSWithCAFile(t *testing.T) {
	serverTLS, caFile := testCA(t)
	srv := startLocal(t, localmail.Options{TLSConfig: serverTLS})

	// SMTP: mandatory STARTTLS, verified against the CA, then AUTH.
	ev := &events{}
	row := composed(t, 1, "lexio+t1-x@localhost")
	o := newOutbox(ev, row)
	d, err := mailer.NewDispatcher(mailer.DispatcherConfig{
		Addr: srv.SMTPAddr(), TLS: mailer.TLSStartTLS, CAFile: caFile,
		Username: "lexio", Password: "secret", Now: start2026().Now,
	}, o)
	if err != nil {
		t.Fatal(err)
	}
	if res, err := d.RunOnce(t.Context()); err != nil || res.Sent != 1 {
		t.Fatalf("RunOnce = %+v, %v (%v)", res, err, o.row(1).reasons)
	}

	// IMAP: STARTTLS verified against the CA.
	h := newRecorder()
	cfg := receiverConfig(srv)
	cfg.TLS, cfg.CAFile = mailer.TLSStartTLS, caFile
	r, err := mailer.NewReceiver(cfg, h)
	if err != nil {
		t.Fatal(err)
	}
	stop := runReceiver(t, r)
	eventually(t, "delivery over STARTTLS", func() bool { return count(t, srv, "Processed") == 1 })
	stop()

	// Without the CA the server is not trusted: nothing is sent.
	o2 := newOutbox(ev, composed(t, 2, "lexio@localhost"))
	d2, err := mailer.NewDispatcher(mailer.DispatcherConfig{
		Addr: srv.SMTPAddr(), TLS: mailer.TLSStartTLS, Now: start2026().Now,
	}, o2)
	if err != nil {
		t.Fatal(err)
	}
	res, err := d2.RunOnce(t.Context())
	if err != nil || res.Retry != 1 || !strings.Contains(strings.Join(o2.row(2).reasons, " "), "certificate") {
		t.Errorf("untrusted server: %+v, %v, %v", res, err, o2.row(2).reasons)
	}
	// And mandatory STARTTLS against a server without it fails too.
	plain := startLocal(t, localmail.Options{})
	o3 := newOutbox(ev, composed(t, 3, "lexio@localhost"))
	d3, _ := mailer.NewDispatcher(mailer.DispatcherConfig{Addr: plain.SMTPAddr(), TLS: mailer.TLSStartTLS, CAFile: caFile, Now: start2026().Now}, o3)
	if res, _ := d3.RunOnce(t.Context()); res.Retry != 1 {
		t.Errorf("mandatory STARTTLS to a plain server: %+v", res)
	}
	if n, _ := plain.Count("lexio", "INBOX"); n != 0 {
		t.Errorf("mail went out in clear")
	}
}
