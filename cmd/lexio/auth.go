package main

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/lexio-mail/lexio/config"
	"github.com/lexio-mail/lexio/mailer/oauth"
)

// runAuthLogin gets the first refresh token of [oauth2] (grant
// refresh_token: Gmail, Outlook.com) by the installed-app loopback flow
// and writes it to oauth2.refresh_token_file, mode 600; serve then keeps
// it, rotated as the provider asks.
func runAuthLogin(ctx context.Context, e *env, args []string) error {
	fs := newFlags(e, "auth login")
	path := fs.String("c", configPath(e), "configuration `file`")
	wait := fs.Duration("timeout", 10*time.Minute, "how long to wait for the sign-in in the browser")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() != 0 {
		return fmt.Errorf("%w: no arguments", errUsage)
	}
	c, err := loadConfig(*path)
	if err != nil {
		return err
	}
	o := c.OAuth2
	switch {
	case o.Grant != config.GrantRefreshToken:
		return fmt.Errorf("%s: oauth2.grant is %q, which needs no sign-in: auth login gets the refresh token of grant = \"refresh_token\"", *path, o.Grant)
	case o.ClientID == "" || o.TokenURL == "" || o.RefreshTokenFile == "":
		return fmt.Errorf("%s: auth login needs oauth2.client_id, oauth2.token_url (or a provider) and oauth2.refresh_token_file", *path)
	case o.AuthURL == "":
		return fmt.Errorf("%s: oauth2.auth_url is empty: set the provider's authorization endpoint, or provider = \"google\" or \"microsoft\"", *path)
	}
	cfg := oauth.Config{TokenURL: o.TokenURL, AuthURL: o.AuthURL, ClientID: o.ClientID, Grant: oauth.RefreshToken,
		RefreshTokenFile: o.RefreshTokenFile, Scopes: o.Scopes()}
	// Google's desktop clients have a secret; public clients none.
	if cfg.ClientSecret, err = c.OAuth2ClientSecret(); err != nil {
		return err
	}
	user := c.IMAP.Username
	if user == "" {
		user = c.SMTP.Username
	}
	ctx, cancel := context.WithTimeout(ctx, *wait)
	defer cancel()
	err = oauth.Login(ctx, cfg, func(authURL string) {
		fmt.Fprintf(e.stdout, "Open this address in a browser on this machine and sign in as %s\n"+
			"(from elsewhere: ssh -L with the port below, then open it there):\n\n%s\n\n", user, authURL)
	})
	if errors.Is(err, context.DeadlineExceeded) {
		return fmt.Errorf("no sign-in within %s: run it again", *wait)
	}
	if err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "refresh token written to %s (mode 600); `%s serve` uses it\n", o.RefreshTokenFile, e.program())
	return nil
}
