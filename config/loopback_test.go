package config

import (
	"strings"
	"testing"
)

// mailServers is a configuration with its own mail servers at imap and
// smtp, each with tls.
func mailServers(imap, imapTLS, smtp, smtpTLS string) string {
	return "[mail]\naddress = \"lexio@example.org\"\nsecret_file = \"/s\"\n" +
		"[imap]\naddress = \"" + imap + "\"\ntls = \"" + imapTLS + "\"\nusername = \"lexio\"\npassword_file = \"/p\"\n" +
		"[smtp]\naddress = \"" + smtp + "\"\ntls = \"" + smtpTLS + "\"\nusername = \"lexio\"\npassword_file = \"/p\"\n"
}

// TestClearTextLoopbackOnly: tls = "none" sends the login and the mail in
// clear, so it is refused to a server beyond this machine, naming the key
// and the fix; to the loopback (tests, a local relay) it stays allowed,
// and TLS anywhere is fine.
func TestClearTextLoopbackOnly(t *testing.T) {
	for _, host := range []string{"127.0.0.1:143", "127.1.2.3:1143", "[::1]:143", "localhost:143", "LOCALHOST.:25"} {
		if _, err := Parse([]byte(mailServers(host, "none", host, "none"))); err != nil {
			t.Errorf("tls none to %s: %v", host, err)
		}
	}
	if _, err := Parse([]byte(mailServers("imap.example.org:993", "tls", "smtp.example.org:587", "starttls"))); err != nil {
		t.Errorf("TLS to remote servers: %v", err)
	}
	for _, host := range []string{"imap.example.org:143", "192.168.1.10:143", "10.0.0.1:143", "[2001:db8::1]:143", "0.0.0.0:143", "localhost.example.org:143", "128.0.0.1:143"} {
		_, err := Parse([]byte(mailServers(host, "none", "127.0.0.1:25", "none")))
		if err == nil || !strings.Contains(err.Error(), `imap.tls "none" to `+host) || !strings.Contains(err.Error(), `"starttls" (port 143)`) {
			t.Errorf("imap tls none to %s: %v; want a refusal naming imap.tls and the fix", host, err)
		}
		if err != nil && strings.Contains(err.Error(), "smtp.tls") {
			t.Errorf("smtp to the loopback refused: %v", err)
		}
		_, err = Parse([]byte(mailServers("127.0.0.1:143", "none", host, "none")))
		if err == nil || !strings.Contains(err.Error(), `smtp.tls "none" to `+host) || !strings.Contains(err.Error(), `"starttls" (port 587)`) {
			t.Errorf("smtp tls none to %s: %v; want a refusal naming smtp.tls and the fix", host, err)
		}
	}
	// Both at once: both named.
	_, err := Parse([]byte(mailServers("imap.example.org:143", "none", "smtp.example.org:25", "none")))
	if err == nil || !strings.Contains(err.Error(), "imap.tls") || !strings.Contains(err.Error(), "smtp.tls") {
		t.Errorf("both in clear: %v", err)
	}
	// The embedded server's connections are its own: whatever [imap]
	// says is not used.
	if _, err := Parse([]byte("[mail]\naddress = \"lexio@localhost\"\n[embedded]\nenabled = true\n[imap]\naddress = \"imap.example.org:143\"\ntls = \"none\"\n")); err != nil {
		t.Errorf("embedded with an unused [imap]: %v", err)
	}
}

// TestListenWarnings: a [web] or [metrics] listener beyond the loopback
// is warned about, naming the key and what to bind instead; the loopback
// and the defaults (off) give no warning, and none of it is an error.
func TestListenWarnings(t *testing.T) {
	base := "[mail]\naddress = \"lexio@localhost\"\n[embedded]\nenabled = true\n"
	conf := func(web, metrics string) string {
		s := base
		if web != "" {
			s += "[web]\nlisten = \"" + web + "\"\nbase_url = \"https://lexio.example.org\"\n"
		}
		if metrics != "" {
			s += "[metrics]\nlisten = \"" + metrics + "\"\n"
		}
		return s
	}
	for _, tc := range []struct {
		web, metrics string
		want         []string
	}{
		{"", "", nil},
		{"127.0.0.1:8080", "127.0.0.1:9100", nil},
		{"localhost:8080", "[::1]:9100", nil},
		{"0.0.0.0:8080", "", []string{`web.listen "0.0.0.0:8080" listens beyond this machine (every interface)`, "bind 127.0.0.1:8080"}},
		{":8080", ":9100", []string{`web.listen ":8080" listens beyond this machine (every interface)`,
			`metrics.listen ":9100" listens beyond this machine (every interface): /metrics and /healthz have no authentication; bind 127.0.0.1:9100`}},
		{"127.0.0.1:8080", "0.0.0.0:9100", []string{`metrics.listen "0.0.0.0:9100"`}},
		{"[::]:8080", "", []string{`web.listen "[::]:8080" listens beyond this machine (every interface)`}},
		{"203.0.113.7:8080", "", []string{`web.listen "203.0.113.7:8080" listens beyond this machine (a public address)`}},
		{"", "192.168.1.2:9100", []string{`(a private network)`}},
		{"lexio.example.org:8080", "", []string{`(whatever lexio.example.org resolves to)`}},
	} {
		c, err := Parse([]byte(conf(tc.web, tc.metrics)))
		if err != nil {
			t.Errorf("web %q, metrics %q: %v", tc.web, tc.metrics, err)
			continue
		}
		got := strings.Join(c.Warnings(), "\n")
		if tc.want == nil && got != "" {
			t.Errorf("web %q, metrics %q: warned %q", tc.web, tc.metrics, got)
		}
		for _, w := range tc.want {
			if !strings.Contains(got, w) {
				t.Errorf("web %q, metrics %q: warnings %q, want %q", tc.web, tc.metrics, got, w)
			}
		}
	}
}

// TestExampleWarnsNothing: the example file, and the demo's, bind
// nothing beyond the loopback.
func TestExampleWarnsNothing(t *testing.T) {
	c, err := Load("../config.example.toml")
	if err != nil {
		t.Fatal(err)
	}
	if w := c.Warnings(); len(w) > 0 {
		t.Errorf("config.example.toml: %q", w)
	}
	c, err = Parse([]byte(Demo("/d", "/dict", "/s", "127.0.0.1:1143", "127.0.0.1:2525", "127.0.0.1:8080", 0)))
	if err != nil {
		t.Fatal(err)
	}
	if w := c.Warnings(); len(w) > 0 {
		t.Errorf("the demo's configuration: %q", w)
	}
}
