package config

import (
	"fmt"
	"path/filepath"
)

// Demo is the configuration `lexio demo` (make run) plays with: everything
// on this machine, a table for alice and bob. dir is its data directory,
// which keeps the store and the mail; the dictionary, the secret file and
// the listen addresses are the demo's; seed deals the demo table's tiles.
func Demo(dir, dictionary, secretFile, imapAddr, smtpAddr, webAddr string, seed uint64) string {
	return fmt.Sprintf(demoConfig, dir, dictionary, filepath.Join(dir, "demo.db"), secretFile, imapAddr, smtpAddr, filepath.Join(dir, "mail"),
		webAddr, "http://"+webAddr, seed)
}

// demoConfig is the file Demo writes, filled in with fmt.Sprintf.
const demoConfig = `# Written by "lexio demo": the embedded default. Edit freely; delete it to
# get the default back. See config.example.toml for every key.
data_dir = %[1]q
dictionary = %[2]q
log_level = "info"
# The computer answers within seconds, so that a game against it
# (NEW lexio bot) feels like one.
bot_delay = "5s"

[storage]
driver = "sqlite"
sqlite_path = %[3]q

[mail]
address = "lexio@localhost"
name = "Lexio demo"
secret_file = %[4]q
# Every player of the demo is at one domain, localhost, which may have a
# tenth of each day's total: the totals are ten times the defaults, so
# that the demo's players get what players of ten domains would.
outsider_mails_per_day = 1000
unproven_answers_total_per_day = 5000

[embedded]
enabled = true
imap_listen = %[5]q
smtp_listen = %[6]q
domain = "localhost"
users = ["alice", "bob", "carol", "dave"]
mail_dir = %[7]q

[open_tables]
allow = true
league = "demo"

[web]
listen = %[8]q
base_url = %[9]q

[[league]]
name = "demo"
variant = "lexio"
turn_time = "72h"
reminders = ["24h", "2h"]
away_grace = "2h"

[[table]]
name = "demo"
league = "demo"
players = ["alice@localhost", "bob@localhost"]
# A deal whose first rack plays the README's first move (0: any deal).
seed = %[10]d
`
