#!/usr/bin/env bash
# `npm test`: unit, integration (real PostgreSQL, real Parse Server, a real Redis
# for the two-instance test) and end-to-end tests (headless Debian Chromium
# against the real site). Installs the Debian packages it needs when it can.
set -euo pipefail
cd "$(dirname "$0")/.."

need=()
[ -x /usr/bin/chromium ] || need+=(chromium)
command -v redis-server >/dev/null || need+=(redis-server)
# psql runs docker-compose.yml's database set-up script (deploy/postgres/app-role.sh) in a test.
command -v psql >/dev/null || need+=(postgresql-client)
if [ ${#need[@]} -gt 0 ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    echo "Installing Debian's ${need[*]} for the tests..."
    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}") >/dev/null
  else
    echo "npm test needs Debian's ${need[*]}: run 'sudo apt-get install ${need[*]}'." >&2
    exit 1
  fi
fi

npx vitest run
npm run build --silent
npx playwright test
