#!/usr/bin/env bash
# Installs what lexio's build and tests need on a Debian machine, or says
# exactly what is missing. Idempotent; quiet when everything is there.
set -euo pipefail

missing=()
command -v go >/dev/null 2>&1 || missing+=("Go 1.26 or newer (https://go.dev/dl/), on PATH")
command -v gcc >/dev/null 2>&1 || missing+=("gcc (go test -race needs cgo): apt-get install -y gcc")
if ((${#missing[@]})); then
  printf 'lexio: cannot build here; missing:\n' >&2
  printf '  - %s\n' "${missing[@]}" >&2
  exit 1
fi

apt_install() {
  # apt_install PACKAGE... — installs with apt when we are root and apt is usable.
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "lexio: installing $* with apt-get" >&2
    export DEBIAN_FRONTEND=noninteractive
    if ! apt-get install -y -q --no-install-recommends "$@" >/dev/null 2>&1; then
      apt-get update -qq >/dev/null 2>&1 || true
      apt-get install -y -q --no-install-recommends "$@" >/dev/null
    fi
    return 0
  fi
  return 1
}

# The French word list (RULES §8): Debian's wfrench, never committed.
if [ ! -s /usr/share/dict/french ]; then
  if ! apt_install wfrench; then
    echo "lexio: /usr/share/dict/french is missing: run 'sudo apt-get install wfrench'" >&2
    exit 1
  fi
fi

# The browser tests (internal/browser) render mail in Debian's chromium;
# only `deps.sh test` (make test) needs it. Without it they skip, saying
# so, or fail under CI: so under CI its absence stops here.
if [ "${1:-}" = test ] && [ ! -x /usr/bin/chromium ]; then
  apt_install chromium || true
  if [ ! -x /usr/bin/chromium ]; then
    echo "lexio: /usr/bin/chromium is missing: run 'sudo apt-get install chromium' (the browser tests skip without it)" >&2
    if [ -n "${CI:-}" ]; then exit 1; fi
  fi
fi

# The accessibility checks of the browser tests inject axe-core, pinned in
# internal/browser/axe's package-lock.json, which npm installs there (npm
# from apt). Without it they skip, saying so, or fail under CI. npm ci
# runs only when the installed version is not the pinned one.
if [ "${1:-}" = test ]; then
  axe=internal/browser/axe
  root=$(cd "$(dirname "$0")/.." && pwd)
  command -v npm >/dev/null 2>&1 || apt_install npm || true
  if ! command -v npm >/dev/null 2>&1; then
    echo "lexio: npm is missing: run 'sudo apt-get install npm', then 'bash scripts/deps.sh test' (the accessibility checks skip without it)" >&2
    if [ -n "${CI:-}" ]; then exit 1; fi
  else
    want=$(node -p "require('$root/$axe/package-lock.json').packages['node_modules/axe-core'].version" 2>/dev/null || true)
    have=$(node -p "require('$root/$axe/node_modules/axe-core/package.json').version" 2>/dev/null || true)
    if [ -z "$want" ] || [ "$have" != "$want" ] || [ ! -s "$root/$axe/node_modules/axe-core/axe.min.js" ]; then
      if ! (cd "$root/$axe" && npm ci --no-audit --no-fund --loglevel=error >/dev/null); then
        echo "lexio: 'npm ci' in $axe failed (the accessibility checks skip without axe-core)" >&2
        if [ -n "${CI:-}" ]; then exit 1; fi
      fi
    fi
  fi
fi

# deploy's test verifies the service unit with systemd-analyze (package
# systemd; nothing is started). Without it the test skips, saying so, or
# fails under CI.
if [ "${1:-}" = test ] && ! command -v systemd-analyze >/dev/null 2>&1; then
  apt_install systemd || true
  if ! command -v systemd-analyze >/dev/null 2>&1; then
    echo "lexio: systemd-analyze is missing: run 'sudo apt-get install systemd' (the unit's check skips without it)" >&2
    if [ -n "${CI:-}" ]; then exit 1; fi
  fi
fi
