#!/usr/bin/env bash
# A real mail stack for `make test-integration`: Dovecot (IMAP + LMTP) and
# Postfix from apt, on 127.0.0.1 only, run as plain processes (no systemd)
# and stopped by PID. Needs root and apt (CI: a fresh Debian machine).
#
#   scripts/mailstack.sh start            install if needed, configure, start both
#   scripts/mailstack.sh stop             stop both (by PID)
#   scripts/mailstack.sh status           say what runs
#   scripts/mailstack.sh stop-postfix | start-postfix | stop-dovecot | restart-dovecot
#                                         (the outage tests)
#
# State lives under .mailstack/ (MAILSTACK_ROOT overrides it):
#   env             what the tests read: ports, users, CA file (shell syntax)
#   tls/            a test CA and a certificate for localhost and 127.0.0.1
#   dovecot/        dovecot.conf, users (passwd-file), logs, run and state
#   mail/<user>/    the mailboxes (sdbox: a file per message, u.<UID>)
#   postfix.log     Postfix's log
#   postfix-queue.img  Postfix's queue, where the root has no journal (mount_queue)
# Users: lexio (the service) and the players alice, bob, carol, dave, plus
# eve (a stranger, for the identity tests); each password is <user>-pw.
# OAuth2: a login by XOAUTH2 or OAUTHBEARER presents a bearer token, which
# Dovecot's oauth2 passdb checks at the token server's introspection
# endpoint (RFC 7662) on 127.0.0.1:8587 (MAILSTACK_OAUTH), on every login
# (no auth cache): the integration test runs that server itself, so these
# logins fail while no test does. Postfix's submission port logs in
# through Dovecot, so SMTP takes the same tokens. Passwords still log in
# by PLAIN and LOGIN.
# The load test's 100 tables seat players of their own, load000a to
# load099d (MAILSTACK_LOAD_USERS), as 100 tables of real people would be.
# Ports: SMTP 25 (STARTTLS offered, relays for 127.0.0.0/8), submission
# 587 (STARTTLS and SASL required), IMAP 143 (STARTTLS), LMTP 24 (Postfix
# itself hands mail to Dovecot over the Unix socket private/dovecot-lmtp).
# Plus-addressing: recipient_delimiter = + in Postfix and Dovecot, so that
# lexio+TOKEN@localhost lands in lexio's INBOX.
# Deferred mail is retried within 5-30 s (not minutes): the outage tests.
# Postfix is configured in /etc/postfix (a throwaway machine's).
# Both are tuned for CPU per delivered mail (the load test is CPU-bound on
# 2 cores); each setting says why, with what it saved when measured.
set -euo pipefail

cd "$(dirname "$0")/.."
ROOT=${MAILSTACK_ROOT:-$PWD/.mailstack}
USERS=(lexio alice bob carol dave eve)
LOAD_USERS=()
for t in $(seq 0 99); do
  for s in a b c d; do LOAD_USERS+=("$(printf 'load%03d%s' "$t" "$s")"); done
done
QUEUE=/var/spool/postfix
# The token server the tests run, and the credentials Dovecot presents to
# its introspection endpoint (RFC 7662 §2.1: the endpoint knows its
# callers). Test values on the loopback, like the passwords.
OAUTH=127.0.0.1:8587
OAUTH_INTROSPECT_CLIENT=dovecot
OAUTH_INTROSPECT_SECRET=dovecot-introspects
POSTFIX_PID=$QUEUE/pid/master.pid

say() { echo "mailstack: $*" >&2; }
die() {
  say "$*"
  exit 1
}

need_root() { [ "$(id -u)" = 0 ] || die "must run as root (it installs packages and binds ports 25, 143, 587)"; }

install() {
  if command -v dovecot >/dev/null 2>&1 && command -v postfix >/dev/null 2>&1 &&
    [ -x /usr/lib/dovecot/lmtp ] && command -v openssl >/dev/null 2>&1; then
    return 0
  fi
  need_root
  command -v apt-get >/dev/null 2>&1 || die "no apt-get: install dovecot-imapd, dovecot-lmtpd, postfix and openssl by hand"
  export DEBIAN_FRONTEND=noninteractive
  # apt must not start the daemons: a policy-rc.d exiting 101 says so.
  if [ ! -e /usr/sbin/policy-rc.d ]; then
    printf '#!/bin/sh\nexit 101\n' >/usr/sbin/policy-rc.d
    chmod +x /usr/sbin/policy-rc.d
  fi
  echo "postfix postfix/main_mailer_type select Local only" | debconf-set-selections
  echo "postfix postfix/mailname string localhost" | debconf-set-selections
  say "installing postfix, dovecot-imapd, dovecot-lmtpd, openssl with apt-get (about 80 s)"
  local pkgs=(postfix dovecot-imapd dovecot-lmtpd openssl ca-certificates)
  if ! apt-get install -y -q --no-install-recommends "${pkgs[@]}" >"$ROOT.apt.log" 2>&1; then
    apt-get update -qq >>"$ROOT.apt.log" 2>&1 || true
    apt-get install -y -q --no-install-recommends "${pkgs[@]}" >>"$ROOT.apt.log" 2>&1 ||
      die "apt-get install failed; see $ROOT.apt.log"
  fi
  rm -f "$ROOT.apt.log"
}

# certs makes a test CA and a server certificate for localhost/127.0.0.1,
# once; the daemon and the players verify the servers against ca.crt.
# The server key is ECDSA P-256, cheaper to sign with than RSA-2048: a
# STARTTLS+AUTH connection costs smtpd ~1.5 ms CPU instead of ~2.0. An
# older RSA server certificate is replaced; the CA stays.
certs() {
  local d=$ROOT/tls
  if [ -s "$d/server.crt" ] && [ -s "$d/ca.crt" ] &&
    openssl x509 -in "$d/server.crt" -noout -text 2>/dev/null | grep -q id-ecPublicKey; then
    return 0
  fi
  mkdir -p "$d"
  if ! [ -s "$d/ca.crt" ] || ! [ -s "$d/ca.key" ]; then
    openssl req -x509 -newkey rsa:2048 -nodes -days 3650 -subj "/CN=lexio test CA" \
      -keyout "$d/ca.key" -out "$d/ca.crt" \
      -addext "basicConstraints=critical,CA:TRUE" -addext "keyUsage=critical,keyCertSign,cRLSign" 2>/dev/null
  fi
  openssl req -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -subj "/CN=localhost" \
    -keyout "$d/server.key" -out "$d/server.csr" 2>/dev/null
  printf 'subjectAltName=DNS:localhost,IP:127.0.0.1\nbasicConstraints=CA:FALSE\nkeyUsage=digitalSignature\nextendedKeyUsage=serverAuth\n' >"$d/server.ext"
  openssl x509 -req -in "$d/server.csr" -CA "$d/ca.crt" -CAkey "$d/ca.key" -CAcreateserial \
    -days 3650 -extfile "$d/server.ext" -out "$d/server.crt" 2>/dev/null
  chmod 600 "$d/ca.key" "$d/server.key"
}

# Measured and not kept (no gain beyond noise, or against a guarantee):
# mail_fsync = never (~15% less Dovecot CPU, but a crash could lose mail
# already acknowledged), maildir_very_dirty_syncs (moot with sdbox), auth
# cache, stats and info logging off (their processes use <0.1 ms per mail).
configure_dovecot() {
  local d=$ROOT/dovecot
  mkdir -p "$d/run" "$d/state" "$ROOT/mail"
  chown mail:mail "$ROOT/mail"
  : >"$d/users"
  for u in "${USERS[@]}" "${LOAD_USERS[@]}"; do
    echo "$u:{PLAIN}$u-pw:8:8::$ROOT/mail/$u::" >>"$d/users"
  done
  chmod 640 "$d/users"
  chgrp dovecot "$d/users"
  # Read by the auth process (user dovecot); it holds the introspection secret.
  cat >"$d/oauth2.conf.ext" <<EOF
# Written by scripts/mailstack.sh: the oauth2 passdb, for tests.
# Each login's token is posted to the introspection endpoint (no
# tokeninfo_url), which answers active, username and scope; the username
# must be the login's and the scope must hold "mail".
introspection_mode = post
introspection_url = http://$OAUTH/introspect
client_id = $OAUTH_INTROSPECT_CLIENT
client_secret = $OAUTH_INTROSPECT_SECRET
username_attribute = username
active_attribute = active
active_value = true
scope = mail
# X-Dovecot-Auth-Service tells the token server whether IMAP or SMTP
# (Postfix, through the auth socket) presented the token.
send_auth_headers = yes
timeout_msecs = 10000
EOF
  chmod 640 "$d/oauth2.conf.ext"
  chgrp dovecot "$d/oauth2.conf.ext"
  local dh=""
  [ -s /usr/share/dovecot/dh.pem ] && dh="ssl_dh = </usr/share/dovecot/dh.pem"
  cat >"$d/dovecot.conf" <<EOF
# Written by scripts/mailstack.sh: loopback only, for tests.
protocols = imap lmtp
listen = 127.0.0.1
base_dir = $d/run
state_dir = $d/state
log_path = $d/dovecot.log
info_log_path = $d/dovecot.log
ssl = yes
ssl_cert = <$ROOT/tls/server.crt
ssl_key = <$ROOT/tls/server.key
$dh
disable_plaintext_auth = no
auth_mechanisms = plain login xoauth2 oauthbearer
# No auth cache (the default, said here): a revoked or expired token is
# refused at the next login, not honoured from the cache.
auth_cache_size = 0
auth_username_format = %Ln
recipient_delimiter = +
lmtp_save_to_detail_mailbox = no
first_valid_uid = 8
# sdbox, not maildir (no dovecot-uidlist re-read per mail): LMTP into a 6,500-mail INBOX 4.5-5.3 -> 3.1-3.6 ms CPU, FETCH+STORE+MOVE 4.2-4.8 -> 1.6-1.8 ms.
mail_location = sdbox:~/sdbox
# No mailbox list index: LMTP read (and updated) it at each delivery, for
# the benefit of LIST-STATUS, which nothing here needs: ~3% less CPU in
# Postfix and Dovecot in the load test (one back-to-back pair of runs).
mailbox_list_index = no
# The service's INBOX takes every move and gives it up at once (lexio
# moves it to Processed): its transaction log grows by an append and an
# expunge per move, and a delivery cost more the longer the log (~1 ms
# more into an emptied INBOX whose log held 2,000 mails than into a fresh
# one). Rotated at 64 KB instead of 1 MB (the default while the log is
# younger than 5 minutes), the load test's LMTP used ~10% less CPU.
mail_index_log_rotate_max_size = 64k
mail_max_userip_connections = 200
# Passwords by PLAIN and LOGIN, tokens by XOAUTH2 and OAUTHBEARER: each
# passdb takes only its own mechanisms, so a token is never compared with
# a password, nor a password sent to the token server.
passdb {
  driver = passwd-file
  args = scheme=PLAIN $d/users
  mechanisms = plain login
}
passdb {
  driver = oauth2
  args = $d/oauth2.conf.ext
  mechanisms = xoauth2 oauthbearer
}
userdb {
  driver = passwd-file
  args = $d/users
}
service imap-login {
  inet_listener imap {
    address = 127.0.0.1
    port = 143
  }
  inet_listener imaps {
    port = 0
  }
  # Long-lived login processes (high-performance mode): no fork+exec+TLS setup per login (~14 -> ~2 ms CPU per IMAP login, with imap reuse).
  service_count = 0
  process_min_avail = 2
}
service imap {
  # An imap process serves up to 100 sessions in turn (all users are uid 8) instead of one process each.
  service_count = 100
}
service lmtp {
  inet_listener lmtp {
    address = 127.0.0.1
    port = 24
  }
  # Postfix delivers here: a Unix socket is cheaper than TCP on loopback (Postfix's lmtp client ~15% less CPU).
  unix_listener /var/spool/postfix/private/dovecot-lmtp {
    mode = 0600
    user = postfix
    group = postfix
  }
}
# Postfix's submission port authenticates through Dovecot.
service auth {
  unix_listener /var/spool/postfix/private/auth {
    mode = 0660
    user = postfix
    group = postfix
  }
  # Reused imap/login processes keep auth connections open: room for all (doveconf warns otherwise).
  client_limit = 2000
}
EOF
}

# Measured and not kept (no gain beyond noise): permanent LMTP connection
# caching, smtpd_peername_lookup = no, smtputf8_enable = no,
# receive_override_options, no TLS session tickets, maillog_file off,
# disable_mime_input_processing, hashed incoming/active queues (cleanup
# creates each queue file in incoming/ itself before hashing it).
configure_postfix() {
  # No client gets its header addresses rewritten (the default does it for
  # clients on this host's own addresses, which every client is here):
  # lexio and mail clients write complete addresses, and cleanup asked
  # trivial-rewrite about each From, To and Reply-To (trivial-rewrite
  # ~35% less CPU in the load test; envelope addresses are still
  # rewritten).
  #
  # Parallel deliveries to Dovecot: 8 kept the two cores busy with less
  # switching between idle LMTP processes than 20 (load test, speed-
  # normalised: ~3% more moves/s; 4 gave no more than 8).
  local LMTP_CONCURRENCY=8
  postconf -e \
    'inet_interfaces = 127.0.0.1' 'inet_protocols = ipv4' \
    'myhostname = localhost' 'myorigin = localhost' 'mydestination = localhost' \
    'mynetworks = 127.0.0.0/8' 'relayhost =' \
    'local_recipient_maps =' \
    'recipient_delimiter = +' \
    'alias_maps =' 'alias_database =' \
    "smtpd_tls_cert_file = $ROOT/tls/server.crt" "smtpd_tls_key_file = $ROOT/tls/server.key" \
    'smtpd_tls_security_level = may' 'smtp_tls_security_level = none' \
    'smtpd_sasl_type = dovecot' 'smtpd_sasl_path = private/auth' \
    'message_size_limit = 52428800' 'in_flow_delay = 0' \
    'smtpd_client_connection_count_limit = 0' 'smtpd_client_connection_rate_limit = 0' \
    "lmtp_destination_concurrency_limit = $LMTP_CONCURRENCY" \
    'local_header_rewrite_clients =' \
    'queue_run_delay = 5s' 'minimal_backoff_time = 5s' 'maximal_backoff_time = 30s' \
    "maillog_file_prefixes = /var, /dev/stdout, $ROOT" "maillog_file = $ROOT/postfix.log"
  # Deliver to Dovecot's LMTP Unix socket (dovecot.conf): cheaper than TCP to 127.0.0.1:24.
  postconf -e 'local_transport = lmtp:unix:private/dovecot-lmtp'
  # A daemon restart costs ~5 ms CPU (cleanup, lmtp) to ~11 ms (smtpd, TLS setup): every 1000 uses, not 100.
  postconf -e 'max_use = 1000'
  postconf -F '*/*/chroot = n'
  postconf -M 'submission/inet=submission inet n - n - - smtpd'
  postconf -P 'submission/inet/syslog_name=postfix/submission' \
    'submission/inet/smtpd_tls_security_level=encrypt' \
    'submission/inet/smtpd_sasl_auth_enable=yes' \
    'submission/inet/smtpd_tls_auth_only=yes' \
    'submission/inet/smtpd_client_restrictions=permit_sasl_authenticated,reject' \
    'submission/inet/smtpd_relay_restrictions=permit_sasl_authenticated,reject'
  postfix check
}

listening() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

wait_port() { # wait_port PORT WHAT
  for _ in $(seq 1 100); do
    listening "$1" && return 0
    sleep 0.1
  done
  die "$2 does not listen on 127.0.0.1:$1 (logs under $ROOT)"
}

wait_gone() { # wait_gone PID
  for _ in $(seq 1 100); do
    kill -0 "$1" 2>/dev/null || return 0
    sleep 0.1
  done
  kill -9 "$1" 2>/dev/null || true
}

dovecot_pid() { cat "$ROOT/dovecot/run/master.pid" 2>/dev/null || true; }
postfix_pid() { tr -d ' \n' 2>/dev/null <"$POSTFIX_PID" || true; }
running() { [ -n "$1" ] && kill -0 "$1" 2>/dev/null; }

start_dovecot() {
  running "$(dovecot_pid)" && return 0
  # Daemons must not inherit our stdout/stderr: a caller reading them
  # through a pipe would wait for ever.
  dovecot -c "$ROOT/dovecot/dovecot.conf" </dev/null >"$ROOT/dovecot/start.log" 2>&1 ||
    die "dovecot did not start: $(cat "$ROOT/dovecot/start.log")"
  wait_port 143 dovecot
  wait_port 24 "dovecot lmtp"
}

stop_dovecot() {
  local pid children c
  pid=$(dovecot_pid)
  if running "$pid"; then
    # The master does not always end its IMAP processes (an IDLE session
    # outlived it here): end them too, by PID, as a real restart would.
    children=$(pgrep -P "$pid" || true)
    kill "$pid"
    wait_gone "$pid"
    for c in $children; do
      kill "$c" 2>/dev/null || true
    done
    for c in $children; do
      wait_gone "$c"
    done
  fi
}

start_postfix() {
  running "$(postfix_pid)" && return 0
  postfix start </dev/null >"$ROOT/postfix-start.log" 2>&1 ||
    die "postfix did not start: $(cat "$ROOT/postfix-start.log")"
  wait_port 25 postfix
  wait_port 587 "postfix submission"
}

stop_postfix() {
  local pid
  pid=$(postfix_pid)
  if running "$pid"; then
    kill "$pid"
    wait_gone "$pid"
  fi
}

write_env() {
  cat >"$ROOT/env" <<EOF
MAILSTACK_ROOT=$ROOT
MAILSTACK_DOMAIN=localhost
MAILSTACK_SMTP=127.0.0.1:25
MAILSTACK_SUBMISSION=127.0.0.1:587
MAILSTACK_IMAP=127.0.0.1:143
MAILSTACK_CA=$ROOT/tls/ca.crt
MAILSTACK_USERS="${USERS[*]}"
MAILSTACK_LOAD_USERS="${LOAD_USERS[*]}"
MAILSTACK_PASSWORD_SUFFIX=-pw
MAILSTACK_OAUTH=$OAUTH
MAILSTACK_OAUTH_INTROSPECT_CLIENT=$OAUTH_INTROSPECT_CLIENT
MAILSTACK_OAUTH_INTROSPECT_SECRET=$OAUTH_INTROSPECT_SECRET
MAILSTACK_DOVECOT_PID=$(dovecot_pid)
MAILSTACK_POSTFIX_PID=$(postfix_pid)
EOF
}

# Postfix's queue gets a journaled ext4 of its own, a loop-mounted image
# in $ROOT, when the filesystem under it is ext4 without a journal (this
# VM's root). There, allocating an inode scans every inode its block group
# freed in the last 30 s (fs/ext4/ialloc.c, recently_deleted), and Postfix
# creates and deletes a queue file per mail, all in incoming/'s group: the
# scan was ~5% of the load test's CPU, in cleanup. On its own journaled
# filesystem Postfix and Dovecot used ~6% less CPU per move, the loop
# device's kernel threads ~2% more of the machine: ~2% more moves/s (back
# to back: 46.1 -> 47.1). Journaled, the queue stays as durable as on any
# mail host. MAILSTACK_QUEUE_FS=plain keeps the queue where it is; without
# loop devices it stays there too.
QUEUE_IMG=$ROOT/postfix-queue.img

journal_less_ext4() { # journal_less_ext4 DIR
  local dev
  dev=$(df --output=source "$1" 2>/dev/null | tail -1)
  dev=${dev##*/}
  [ -n "$dev" ] && [ "$(cat "/sys/fs/ext4/$dev/journal_task" 2>/dev/null)" = "<none>" ]
}

queue_mounted() { losetup -j "$QUEUE_IMG" 2>/dev/null | grep -q . && mountpoint -q "$QUEUE"; }

mount_queue() {
  [ "${MAILSTACK_QUEUE_FS:-}" = plain ] && return 0
  queue_mounted && return 0
  journal_less_ext4 "$QUEUE" || return 0
  local tmp=$ROOT/postfix-queue.mnt
  rm -f "$QUEUE_IMG"
  mkdir -p "$tmp"
  if ! truncate -s 4G "$QUEUE_IMG" || ! mkfs.ext4 -q -F "$QUEUE_IMG" >/dev/null 2>&1 ||
    ! mount -o loop "$QUEUE_IMG" "$tmp" 2>/dev/null; then
    say "no loop device: Postfix's queue stays on the root filesystem (slower, see mount_queue)"
    rm -f "$QUEUE_IMG"
    return 0
  fi
  # The queue's skeleton (directories, owners, modes) as the package made it.
  cp -a "$QUEUE/." "$tmp/" && rm -rf "$tmp/lost+found"
  umount "$tmp"
  mount -o loop "$QUEUE_IMG" "$QUEUE" || die "cannot mount $QUEUE_IMG on $QUEUE"
  rmdir "$tmp"
}

umount_queue() {
  if queue_mounted; then
    umount "$QUEUE" || say "could not unmount $QUEUE"
  fi
  rm -f "$QUEUE_IMG"
}

start() {
  install
  need_root
  mkdir -p "$ROOT"
  for port in 24 25 143 587; do
    if listening $port && ! running "$(dovecot_pid)" && ! running "$(postfix_pid)"; then
      die "something else listens on 127.0.0.1:$port"
    fi
  done
  certs
  configure_dovecot
  configure_postfix
  # A clean slate: no mail left from an earlier run.
  stop_postfix
  stop_dovecot
  mount_queue
  postsuper -d ALL >/dev/null 2>&1 || true
  rm -rf "${ROOT:?}/mail/"*
  # Each user's mailbox directory in a block group of its own (ext4's
  # "top of hierarchy" flag, chattr +T): where ext4 runs without a journal
  # (this VM's root), allocating an inode skips each inode freed in its
  # group in the last 30 s, one cached block lookup per inode
  # (fs/ext4/ialloc.c, recently_deleted). Dovecot frees one per rewritten
  # index; with all 406 users in one group, that scan took ~7% of the
  # machine's CPU in the load test (perf), and the test ran at 38-40
  # moves/s instead of 47. Other filesystems: no-op.
  chattr +T "$ROOT/mail" 2>/dev/null || true
  : >"$ROOT/postfix.log"
  start_dovecot
  # Every INBOX exists before the first mail: two first deliveries at once to a user without one hit a lock deadlock in Dovecot's mailbox creation (seen once, the mail deferred).
  # (-A: every user of the passwd-file, in one process.)
  doveadm -c "$ROOT/dovecot/dovecot.conf" mailbox create -A INBOX >/dev/null 2>&1 || true
  start_postfix
  write_env
  say "dovecot pid $(dovecot_pid), postfix pid $(postfix_pid); state in $ROOT"
}

stop() {
  stop_postfix
  stop_dovecot
  umount_queue
  rm -f "$ROOT/env"
  say "stopped"
}

status() {
  local rc=0
  if running "$(dovecot_pid)"; then say "dovecot runs, pid $(dovecot_pid)"; else
    say "dovecot is stopped"
    rc=1
  fi
  if running "$(postfix_pid)"; then say "postfix runs, pid $(postfix_pid)"; else
    say "postfix is stopped"
    rc=1
  fi
  return $rc
}

case "${1:-}" in
install) install ;;
start) start ;;
stop) stop ;;
status) status ;;
stop-postfix) stop_postfix ;;
start-postfix)
  start_postfix
  write_env
  ;;
stop-dovecot) stop_dovecot ;;
restart-dovecot)
  stop_dovecot
  start_dovecot
  write_env
  ;;
*)
  echo "usage: $0 start|stop|status|install|stop-postfix|start-postfix|stop-dovecot|restart-dovecot" >&2
  exit 2
  ;;
esac
