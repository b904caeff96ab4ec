#!/usr/bin/env bash
# `npm test`: unit, integration (real PostgreSQL, real Parse Server) and
# end-to-end tests (headless Debian Chromium against the real site).
set -euo pipefail
cd "$(dirname "$0")/.."

# Debian's Chromium drives the end-to-end tests; install it when we can.
if [ ! -x /usr/bin/chromium ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    echo "Installing Debian's chromium for the end-to-end tests..."
    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium) >/dev/null
  else
    echo "npm test needs Debian's Chromium at /usr/bin/chromium: run 'sudo apt-get install chromium'." >&2
    exit 1
  fi
fi

npx vitest run
npm run build --silent
npx playwright test
