package config

import (
	"fmt"
	"net/url"
	"os"
	"slices"
	"strings"
)

// OAuth2 is the [oauth2] section: where the tokens of the IMAP and SMTP
// logins come from when imap.auth or smtp.auth is "oauth2". The SASL user
// is imap.username or smtp.username.
type OAuth2 struct {
	// Provider "google" or "microsoft" fills TokenURL, AuthURL and Scope
	// where the file is silent; "" leaves them to the file.
	Provider string `toml:"provider"`
	// TokenURL is the token endpoint (RFC 6749 §3.2). Microsoft's holds
	// the tenant, so provider "microsoft" cannot fill it.
	TokenURL string `toml:"token_url"`
	// AuthURL is the authorization endpoint `lexio auth login` sends the
	// browser to; derived from the provider when empty.
	AuthURL  string `toml:"auth_url"`
	ClientID string `toml:"client_id"`
	// ClientSecretFile holds the client secret; LEXIO_OAUTH2_CLIENT_SECRET
	// wins over it.
	ClientSecretFile string `toml:"client_secret_file"`
	// Grant is "client_credentials" (RFC 6749 §4.4) or "refresh_token"
	// (§6); Google's default is refresh_token, the others'
	// client_credentials.
	Grant string `toml:"grant"`
	// RefreshTokenFile holds the refresh token of grant refresh_token:
	// written by `lexio auth login`, and again whenever the provider
	// rotates the token. A file only, since lexio writes it.
	RefreshTokenFile string `toml:"refresh_token_file"`
	// Scope is the space-separated scopes asked for.
	Scope string `toml:"scope"`
	// Mechanism is the SASL mechanism: "xoauth2" (default) or
	// "oauthbearer" (RFC 7628).
	Mechanism string `toml:"mechanism"`
}

// The values of imap.auth and smtp.auth, oauth2.grant and
// oauth2.mechanism.
const (
	AuthPassword = "password"
	AuthOAuth2   = "oauth2"

	GrantClientCredentials = "client_credentials"
	GrantRefreshToken      = "refresh_token"

	MechanismXOAUTH2     = "xoauth2"
	MechanismOAUTHBEARER = "oauthbearer"
)

// The providers' endpoints and scopes that [oauth2] fills in.
const (
	googleTokenURL = "https://oauth2.googleapis.com/token"
	googleAuthURL  = "https://accounts.google.com/o/oauth2/v2/auth"
	googleScope    = "https://mail.google.com/"
	// Microsoft 365's app-only access (IMAP.AccessAsApp, SMTP.SendAsApp).
	microsoftAppScope = "https://outlook.office365.com/.default"
	// A user's delegated access, with offline_access for a refresh token.
	microsoftUserScope = "https://outlook.office.com/IMAP.AccessAsUser.All https://outlook.office.com/SMTP.Send offline_access"
	microsoftTokenPath = "/oauth2/v2.0/token"
	microsoftAuthPath  = "/oauth2/v2.0/authorize"
)

// OAuth2On reports whether IMAP or SMTP logs in with OAuth2.
func (c *Config) OAuth2On() bool {
	return c.IMAP.Auth == AuthOAuth2 || c.SMTP.Auth == AuthOAuth2
}

// Scopes returns oauth2.scope split at its spaces.
func (o OAuth2) Scopes() []string { return strings.Fields(o.Scope) }

// OAuth2ClientSecret returns the client secret from
// LEXIO_OAUTH2_CLIENT_SECRET or oauth2.client_secret_file; "" for a
// public client of the refresh token grant, which has neither.
func (c *Config) OAuth2ClientSecret() (string, error) {
	if c.OAuth2.Grant == GrantRefreshToken && c.OAuth2.ClientSecretFile == "" && os.Getenv("LEXIO_OAUTH2_CLIENT_SECRET") == "" {
		return "", nil
	}
	s, err := secret("LEXIO_OAUTH2_CLIENT_SECRET", c.OAuth2.ClientSecretFile, "")
	if err != nil {
		return "", fmt.Errorf("config: oauth2 client secret: %w", err)
	}
	return s, nil
}

// OAuth2RefreshToken returns the refresh token kept in
// oauth2.refresh_token_file.
func (c *Config) OAuth2RefreshToken() (string, error) {
	if c.OAuth2.RefreshTokenFile == "" {
		return "", fmt.Errorf("config: oauth2.refresh_token_file is not set")
	}
	s, err := SecretFile(c.OAuth2.RefreshTokenFile)
	if err != nil {
		return "", fmt.Errorf("config: oauth2 refresh token: %w", err)
	}
	return s, nil
}

func (c *Config) fillOAuth2() {
	if c.IMAP.Auth == "" {
		c.IMAP.Auth = AuthPassword
	}
	if c.SMTP.Auth == "" {
		c.SMTP.Auth = AuthPassword
	}
	o := &c.OAuth2
	if o.Mechanism == "" {
		o.Mechanism = MechanismXOAUTH2
	}
	if o.Grant == "" {
		o.Grant = GrantClientCredentials
		if o.Provider == "google" {
			o.Grant = GrantRefreshToken
		}
	}
	switch o.Provider {
	case "google":
		if o.TokenURL == "" {
			o.TokenURL = googleTokenURL
		}
		if o.AuthURL == "" {
			o.AuthURL = googleAuthURL
		}
		if o.Scope == "" {
			o.Scope = googleScope
		}
	case "microsoft":
		// The token URL names the tenant: the file must give it.
		if o.AuthURL == "" && strings.HasSuffix(o.TokenURL, microsoftTokenPath) {
			o.AuthURL = strings.TrimSuffix(o.TokenURL, microsoftTokenPath) + microsoftAuthPath
		}
		if o.Scope == "" {
			o.Scope = microsoftAppScope
			if o.Grant == GrantRefreshToken {
				o.Scope = microsoftUserScope
			}
		}
	}
}

// validateOAuth2 checks imap.auth, smtp.auth and [oauth2]: the names
// always, the rest only when a login uses OAuth2.
func (c *Config) validateOAuth2(bad func(string, ...any)) {
	for _, s := range []struct{ name, v string }{{"imap.auth", c.IMAP.Auth}, {"smtp.auth", c.SMTP.Auth}} {
		if s.v != AuthPassword && s.v != AuthOAuth2 {
			bad("%s %q: want password or oauth2", s.name, s.v)
		}
	}
	o := c.OAuth2
	if !slices.Contains([]string{"", "google", "microsoft"}, o.Provider) {
		bad("oauth2.provider %q: want google, microsoft, or \"\" with token_url and scope set", o.Provider)
	}
	if o.Grant != GrantClientCredentials && o.Grant != GrantRefreshToken {
		bad("oauth2.grant %q: want client_credentials or refresh_token", o.Grant)
	}
	if o.Mechanism != MechanismXOAUTH2 && o.Mechanism != MechanismOAUTHBEARER {
		bad("oauth2.mechanism %q: want xoauth2 or oauthbearer", o.Mechanism)
	}
	if !c.OAuth2On() {
		return
	}
	if c.IMAP.Auth == AuthOAuth2 && c.IMAP.Username == "" {
		bad("imap.auth = oauth2 needs imap.username: the mailbox the token logs into")
	}
	if c.SMTP.Auth == AuthOAuth2 && c.SMTP.Username == "" {
		bad("smtp.auth = oauth2 needs smtp.username: the mailbox the token sends as")
	}
	if o.ClientID == "" {
		bad("oauth2.client_id is empty: an oauth2 login needs the application (client) ID the provider gave you")
	}
	switch {
	case o.TokenURL == "" && o.Provider == "microsoft":
		bad("oauth2.token_url is empty: Microsoft's names your tenant, https://login.microsoftonline.com/<tenant>%s: "+
			"the directory (tenant) ID for Microsoft 365, \"consumers\" for Outlook.com", microsoftTokenPath)
	case o.TokenURL == "":
		bad("oauth2.token_url is empty: set the provider's token endpoint, or provider = \"google\" or \"microsoft\"")
	case strings.Contains(o.TokenURL, "/TENANT/"):
		bad("oauth2.token_url %q still holds the placeholder TENANT: write your directory (tenant) ID there", o.TokenURL)
	default:
		endpoint("oauth2.token_url", o.TokenURL, bad)
	}
	if o.AuthURL != "" {
		endpoint("oauth2.auth_url", o.AuthURL, bad)
	}
	if o.Scope == "" {
		bad("oauth2.scope is empty: set the scopes the provider grants mail access by")
	}
	switch o.Grant {
	case GrantClientCredentials:
		if o.Provider == "google" {
			bad("oauth2.grant client_credentials: Google grants mail access to a user's refresh token only: grant = \"refresh_token\"")
		}
		if o.ClientSecretFile == "" && os.Getenv("LEXIO_OAUTH2_CLIENT_SECRET") == "" {
			bad("oauth2.grant client_credentials needs oauth2.client_secret_file (or LEXIO_OAUTH2_CLIENT_SECRET)")
		}
	case GrantRefreshToken:
		if o.RefreshTokenFile == "" {
			bad("oauth2.grant refresh_token needs oauth2.refresh_token_file, which `lexio auth login` writes")
		}
	}
}

// endpoint checks an OAuth2 endpoint: https, or http on the loopback for
// a test's own token server.
func endpoint(key, v string, bad func(string, ...any)) {
	u, err := url.Parse(v)
	if err != nil || u.Host == "" || u.User != nil || u.Fragment != "" {
		bad("%s %q: want an absolute https URL", key, v)
		return
	}
	if u.Scheme != "https" && (u.Scheme != "http" || !loopback(u.Hostname())) {
		bad("%s %q: want https (http only on the loopback)", key, v)
	}
}
