package inbox

import (
	"strings"
	"testing"
)

// Real Authentication-Results values, as their servers write them (the
// addresses changed), for the tests and the fuzzer's seeds.
const (
	gmailAR = "mx.google.com;\r\n       dkim=pass header.i=@example.com header.s=20230601 header.b=Ab12Cd34;\r\n" +
		"       arc=pass (i=1 spf=pass spfdomain=example.com dkim=pass dkdomain=example.com dmarc=pass fromdomain=example.com);\r\n" +
		"       spf=pass (google.com: domain of alice@example.com designates 209.85.220.41 as permitted sender) smtp.mailfrom=alice@example.com;\r\n" +
		"       dmarc=pass (p=NONE sp=QUARANTINE dis=NONE) header.from=example.com"
	opendkimAR  = "mail.example.org; dkim=pass (2048-bit key; unprotected) header.d=example.com header.i=@example.com header.a=rsa-sha256 header.s=default header.b=Xy12AbCd"
	opendmarcAR = "mail.example.org; dmarc=pass (p=none dis=none) header.from=example.com"
	rspamdAR    = "mail.example.org;\r\n\tdkim=pass header.d=example.com header.s=dkim header.b=AbCd;\r\n" +
		"\tspf=pass (mail.example.org: domain of \"alice@example.com\" designates 192.0.2.7 as permitted sender) smtp.mailfrom=alice@example.com;\r\n" +
		"\tdmarc=pass (policy=none) header.from=example.com"
	fastmailAR = "mx6.messagingengine.com;\r\n    arc=none (no signatures found);\r\n" +
		"    dkim=pass (2048-bit rsa key sha256) header.d=example.com header.i=@example.com header.b=AbCd header.a=rsa-sha256 header.s=fm1 x-bits=2048;\r\n" +
		"    dmarc=pass policy.published-domain-policy=none policy.applied-disposition=none policy.evaluated-disposition=none (p=none,d=none,d.eval=none) policy.policy-from=p header.from=example.com;\r\n" +
		"    iprev=pass smtp.remote-ip=192.0.2.7 (mail.example.com);\r\n" +
		"    spf=pass smtp.mailfrom=alice@example.com smtp.helo=mail.example.com;\r\n" +
		"    x-aligned-from=pass (Address match);\r\n    x-me-sender=none;\r\n" +
		"    x-tls=pass smtp.version=TLSv1.3 smtp.cipher=TLS_AES_256_GCM_SHA384 smtp.bits=256/256;\r\n" +
		"    x-vs=clean score=-100 state=0"
	outlookAR = "spf=pass (sender IP is 192.0.2.7) smtp.mailfrom=example.com; dkim=pass (signature was verified) header.d=example.com;dmarc=pass action=none header.from=example.com;compauth=pass reason=100"
)

func TestAuthenticated(t *testing.T) {
	t.Parallel()
	const alice = "alice@example.com"
	tests := []struct {
		name    string
		servID  string
		from    string
		headers []string
		want    bool
	}{
		{"gmail", "mx.google.com", alice, []string{gmailAR}, true},
		{"gmail, id in capitals", "MX.Google.COM", "Alice@Example.COM", []string{gmailAR}, true},
		{"opendkim with a semicolon in its comment", "mail.example.org", alice, []string{opendkimAR}, true},
		{"opendmarc on top of opendkim", "mail.example.org", alice, []string{opendmarcAR, opendkimAR}, true},
		{"rspamd", "mail.example.org", alice, []string{rspamdAR}, true},
		{"fastmail", "mx6.messagingengine.com", alice, []string{fastmailAR}, true},
		{"another domain's From", "mx.google.com", "eve@example.net", []string{gmailAR}, false},
		{"no header", "mx.example.org", alice, nil, false},
		{"no authserv-id configured", "", alice, []string{"; dkim=pass header.d=example.com"}, false},
		{"From without a domain", "mx.example.org", "alice", []string{"mx.example.org; dkim=pass header.d=example.com"}, false},
		{"another server's pass", "mx.example.org", alice, []string{gmailAR, outlookAR}, false},
		{"another server's pass above ours", "mx.example.org", alice,
			[]string{"evil.example; dkim=pass header.d=example.com", "mx.example.org; dkim=none"}, false},
		{"another server's fail above ours", "mx.example.org", alice,
			[]string{"evil.example; dmarc=fail header.from=example.com", "mx.example.org; dkim=pass header.d=example.com"}, true},
		{"dkim header.i", "mx.example.org", alice, []string{"mx.example.org; dkim=pass header.i=alice@example.com"}, true},
		{"dkim for a subdomain", "mx.example.org", alice, []string{"mx.example.org; dkim=pass header.d=mail.example.com"}, false},
		{"dkim fail", "mx.example.org", alice, []string{"mx.example.org; dkim=fail (bad signature) header.d=example.com"}, false},
		{"quoted domain", "mx.example.org", alice, []string{`mx.example.org; dkim=pass header.d="example.com"`}, true},
		{"version 1", "mx.example.org", alice, []string{"mx.example.org 1; dkim=pass header.d=example.com"}, true},
		{"unknown version", "mx.example.org", alice, []string{"mx.example.org 2; dkim=pass header.d=example.com"}, false},
		{"dmarc fail overrules dkim pass", "mx.example.org", alice,
			[]string{"mx.example.org; dkim=pass header.d=example.com; dmarc=fail header.from=example.com"}, false},
		{"dmarc none overrules dkim pass", "mx.example.org", alice,
			[]string{"mx.example.org; dkim=pass header.d=example.com; dmarc=none header.from=example.com"}, false},
		{"dmarc for another domain", "mx.example.org", alice,
			[]string{"mx.example.org; dkim=pass header.d=example.com; dmarc=fail header.from=example.net"}, true},
		// RFC 8601 §5: below our server's header, a header with our id
		// may have come with the message.
		{"forged pass below our none", "mx.example.org", alice,
			[]string{"mx.example.org; spf=pass smtp.mailfrom=example.com; dkim=none", "mx.example.org; dkim=pass header.d=example.com"}, false},
		{"forged pass below our fail", "mx.example.org", alice,
			[]string{"MX.example.org; dkim=fail header.d=example.com", "mx.example.org; dkim=pass header.d=example.com; dmarc=pass header.from=example.com"}, false},
		{"forged fail below our pass", "mx.example.org", alice,
			[]string{"mx.example.org; dkim=pass header.d=example.com", "mx.example.org; dmarc=fail header.from=example.com"}, true},
		// A quoted string with a ';' would be split by authres into
		// results the sender chose.
		{"semicolon in a quoted local part", "mx.example.org", alice,
			[]string{`mx.example.org; spf=pass smtp.mailfrom="x;dkim=pass header.d=example.com;y="@evil.example`}, false},
		{"unclosed quote on top", "mx.example.org", alice,
			[]string{`mx.example.org; dkim=pass header.d="example.com`, "mx.example.org; dkim=pass header.d=example.com"}, false},
		{"unreadable result", "mx.example.org", alice, []string{"mx.example.org; dkim=pass header.d=example.com; junk"}, false},
		{"nested comments", "mx.example.org", alice,
			[]string{`mx.example.org (a (nested; \) comment)); dkim=pass (x) header.d=example.com`}, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := authenticated(tc.headers, tc.servID, tc.from); got != tc.want {
				t.Errorf("authenticated(%q, %q, %q) = %v, want %v", tc.headers, tc.servID, tc.from, got, tc.want)
			}
		})
	}
}

// FuzzAuthenticated checks authenticated on arbitrary headers: no panic;
// no pass without a header naming servID and saying pass; headers below
// the topmost with servID and headers of other servers above it never
// change the verdict; our own failing header on top always fails.
// Seeds: testdata/fuzz/FuzzAuthenticated (real servers' headers).
func FuzzAuthenticated(f *testing.F) {
	f.Add("mx.example.org", "alice@example.com", "mx.example.org; dkim=fail header.d=example.com",
		"mx.example.org; dkim=pass header.d=example.com")
	f.Fuzz(func(t *testing.T, servID, from, top, below string) {
		hs := []string{top, below}
		got := authenticated(hs, servID, from)
		if got {
			named := false
			for _, h := range hs {
				lh := strings.ToLower(h)
				named = named || strings.Contains(lh, strings.ToLower(servID)) && strings.Contains(lh, "pass")
			}
			if servID == "" || !named {
				t.Fatalf("pass without a header of %q saying pass: %q", servID, hs)
			}
		}
		v, _ := uncomment(top)
		if ours := servID != "" && strings.EqualFold(authservID(v), servID); ours {
			if one := authenticated([]string{top}, servID, from); one != got {
				t.Fatalf("a header below the topmost of %q changed the verdict from %v to %v: %q", servID, one, got, hs)
			}
		}
		// A well-formed id lets us write headers of our own and of others.
		if servID == "" || strings.ContainsAny(servID, " \t\r\n;()\"\\") || strings.EqualFold(servID, "other.invalid") {
			return
		}
		d := domainOf(from)
		other := "other.invalid; dkim=pass header.d=" + d + "; dmarc=pass header.from=" + d
		if above := authenticated(append([]string{other}, hs...), servID, from); above != got {
			t.Fatalf("another server's header on top changed the verdict from %v to %v: %q", got, above, hs)
		}
		fail := servID + "; dkim=fail header.d=" + d + "; dmarc=fail header.from=" + d
		if authenticated(append([]string{fail}, hs...), servID, from) {
			t.Fatalf("a pass below our failing header: %q", hs)
		}
	})
}
