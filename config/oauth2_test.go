package config

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// oauthBase is a configuration whose IMAP and SMTP log in with OAuth2.
const oauthBase = "[mail]\naddress = \"lexio@example.org\"\nsecret_file = \"/s\"\n" +
	"[imap]\naddress = \"imap.example.org:993\"\nusername = \"lexio@example.org\"\nauth = \"oauth2\"\n" +
	"[smtp]\naddress = \"smtp.example.org:587\"\nusername = \"lexio@example.org\"\nauth = \"oauth2\"\n"

// TestOAuth2Defaults: password logins unless the file says oauth2; the
// mechanism xoauth2; each provider's endpoints and scopes.
func TestOAuth2Defaults(t *testing.T) {
	c, err := Parse([]byte("[mail]\naddress = \"lexio@localhost\"\n[embedded]\nenabled = true\n"))
	if err != nil {
		t.Fatal(err)
	}
	if c.IMAP.Auth != AuthPassword || c.SMTP.Auth != AuthPassword || c.OAuth2On() {
		t.Errorf("imap.auth %q, smtp.auth %q: want password", c.IMAP.Auth, c.SMTP.Auth)
	}
	if c.OAuth2.Mechanism != MechanismXOAUTH2 || c.OAuth2.Grant != GrantClientCredentials {
		t.Errorf("oauth2 %+v", c.OAuth2)
	}

	c, err = Parse([]byte(oauthBase + "[oauth2]\nprovider = \"google\"\nclient_id = \"lexio\"\nrefresh_token_file = \"/rt\"\n"))
	if err != nil {
		t.Fatal(err)
	}
	o := c.OAuth2
	if o.Grant != GrantRefreshToken || o.TokenURL != googleTokenURL || o.AuthURL != googleAuthURL || !slices.Equal(o.Scopes(), []string{"https://mail.google.com/"}) {
		t.Errorf("google: %+v", o)
	}

	ms := "https://login.microsoftonline.com/0b5e2c4a-1111-2222-3333-444455556666/oauth2/v2.0/"
	c, err = Parse([]byte(oauthBase + "[oauth2]\nprovider = \"microsoft\"\nclient_id = \"lexio\"\nclient_secret_file = \"/cs\"\ntoken_url = \"" + ms + "token\"\nmechanism = \"oauthbearer\"\n"))
	if err != nil {
		t.Fatal(err)
	}
	o = c.OAuth2
	if o.Grant != GrantClientCredentials || o.AuthURL != ms+"authorize" || o.Scope != microsoftAppScope || o.Mechanism != MechanismOAUTHBEARER {
		t.Errorf("microsoft, client credentials: %+v", o)
	}
	c, err = Parse([]byte(oauthBase + "[oauth2]\nprovider = \"microsoft\"\nclient_id = \"lexio\"\ngrant = \"refresh_token\"\nrefresh_token_file = \"/rt\"\ntoken_url = \"" + ms + "token\"\n"))
	if err != nil {
		t.Fatal(err)
	}
	if s := c.OAuth2.Scopes(); len(s) != 3 || s[2] != "offline_access" {
		t.Errorf("microsoft, refresh token: scopes %q", s)
	}

	// Any other provider: the file says everything.
	c, err = Parse([]byte(oauthBase + "[oauth2]\nclient_id = \"lexio\"\nclient_secret_file = \"/cs\"\ntoken_url = \"http://127.0.0.1:8080/token\"\nscope = \"mail\"\n"))
	if err != nil {
		t.Fatal(err)
	}
	if c.OAuth2.AuthURL != "" || c.OAuth2.Scope != "mail" {
		t.Errorf("no provider: %+v", c.OAuth2)
	}
}

// TestOAuth2Invalid: each mistake named in a host's words.
func TestOAuth2Invalid(t *testing.T) {
	t.Setenv("LEXIO_OAUTH2_CLIENT_SECRET", "")
	base := "[mail]\naddress = \"lexio@localhost\"\n[embedded]\nenabled = true\n"
	ms := "token_url = \"https://login.microsoftonline.com/contoso.onmicrosoft.com/oauth2/v2.0/token\"\n"
	tests := []struct {
		name, toml, want string
	}{
		{"bad imap auth", base + "[imap]\nauth = \"oauth\"\n", `imap.auth "oauth": want password or oauth2`},
		{"bad smtp auth", base + "[smtp]\nauth = \"xoauth2\"\n", `smtp.auth "xoauth2": want password or oauth2`},
		{"bad provider", base + "[oauth2]\nprovider = \"yahoo\"\n", `oauth2.provider "yahoo"`},
		{"bad grant", base + "[oauth2]\ngrant = \"password\"\n", `oauth2.grant "password": want client_credentials or refresh_token`},
		{"bad mechanism", base + "[oauth2]\nmechanism = \"plain\"\n", `oauth2.mechanism "plain": want xoauth2 or oauthbearer`},
		{"unknown key", base + "[oauth2]\ntenant = \"x\"\n", "unknown keys: oauth2.tenant"},
		{"no client id", oauthBase + "[oauth2]\nprovider = \"microsoft\"\nclient_secret_file = \"/cs\"\n" + ms, "oauth2.client_id is empty"},
		{"microsoft without tenant", oauthBase + "[oauth2]\nprovider = \"microsoft\"\nclient_id = \"lexio\"\nclient_secret_file = \"/cs\"\n", "Microsoft's names your tenant"},
		{"tenant placeholder", oauthBase + "[oauth2]\nprovider = \"microsoft\"\nclient_id = \"lexio\"\nclient_secret_file = \"/cs\"\n" +
			"token_url = \"https://login.microsoftonline.com/TENANT/oauth2/v2.0/token\"\n", "still holds the placeholder TENANT"},
		{"no token url", oauthBase + "[oauth2]\nclient_id = \"lexio\"\nclient_secret_file = \"/cs\"\nscope = \"x\"\n", "oauth2.token_url is empty"},
		{"plain http token url", oauthBase + "[oauth2]\nclient_id = \"lexio\"\nclient_secret_file = \"/cs\"\nscope = \"x\"\ntoken_url = \"http://auth.example.org/token\"\n", "want https (http only on the loopback)"},
		{"relative auth url", oauthBase + "[oauth2]\nprovider = \"google\"\nclient_id = \"lexio\"\nrefresh_token_file = \"/rt\"\nauth_url = \"/auth\"\n", `oauth2.auth_url "/auth": want an absolute https URL`},
		{"no scope", oauthBase + "[oauth2]\nclient_id = \"lexio\"\nclient_secret_file = \"/cs\"\ntoken_url = \"https://auth.example.org/token\"\n", "oauth2.scope is empty"},
		{"no client secret", oauthBase + "[oauth2]\nprovider = \"microsoft\"\nclient_id = \"lexio\"\n" + ms, "client_credentials needs oauth2.client_secret_file"},
		{"no refresh token file", oauthBase + "[oauth2]\nprovider = \"google\"\nclient_id = \"lexio\"\n", "refresh_token needs oauth2.refresh_token_file"},
		{"google app-only", oauthBase + "[oauth2]\nprovider = \"google\"\nclient_id = \"lexio\"\nclient_secret_file = \"/cs\"\ngrant = \"client_credentials\"\n", `grant = "refresh_token"`},
		{"no imap username", strings.Replace(oauthBase, "username = \"lexio@example.org\"\nauth = \"oauth2\"\n[smtp]", "auth = \"oauth2\"\n[smtp]", 1) +
			"[oauth2]\nprovider = \"google\"\nclient_id = \"lexio\"\nrefresh_token_file = \"/rt\"\n", "imap.auth = oauth2 needs imap.username"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse([]byte(tt.toml))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("err = %v; want it to contain %q", err, tt.want)
			}
		})
	}
}

// TestOAuth2Secrets: the client secret and the refresh token are read
// through the private-file check; the environment wins for the secret.
func TestOAuth2Secrets(t *testing.T) {
	t.Setenv("LEXIO_OAUTH2_CLIENT_SECRET", "")
	dir := t.TempDir()
	cs, rt := filepath.Join(dir, "client-secret"), filepath.Join(dir, "refresh-token")
	for _, f := range []string{cs, rt} {
		if err := os.WriteFile(f, []byte(filepath.Base(f)+"-value\n"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	c := &Config{OAuth2: OAuth2{ClientSecretFile: cs, RefreshTokenFile: rt}}
	if s, err := c.OAuth2ClientSecret(); err != nil || s != "client-secret-value" {
		t.Errorf("client secret %q, %v", s, err)
	}
	if s, err := c.OAuth2RefreshToken(); err != nil || s != "refresh-token-value" {
		t.Errorf("refresh token %q, %v", s, err)
	}
	t.Setenv("LEXIO_OAUTH2_CLIENT_SECRET", "from-env")
	if s, err := c.OAuth2ClientSecret(); err != nil || s != "from-env" {
		t.Errorf("the environment must win: %q, %v", s, err)
	}
	for _, f := range []string{cs, rt} {
		if err := os.Chmod(f, 0o640); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("LEXIO_OAUTH2_CLIENT_SECRET", "")
	if _, err := c.OAuth2ClientSecret(); !errors.Is(err, ErrNotPrivate) || strings.Contains(err.Error(), "value") {
		t.Errorf("client secret, mode 0640: %v", err)
	}
	if _, err := c.OAuth2RefreshToken(); !errors.Is(err, ErrNotPrivate) || strings.Contains(err.Error(), "value") {
		t.Errorf("refresh token, mode 0640: %v", err)
	}
}
