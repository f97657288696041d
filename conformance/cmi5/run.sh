#!/usr/bin/env bash
# ADL's CATAPULT LMS Test Suite (cmi5) against Parcours (issue 39 item 1, decision 0062).
#   conformance/cmi5/run.sh [sqlite|postgres]
# Gets CATAPULT into conformance/cmi5/.catapult (gitignored; CATAPULT_DIR to use another copy),
# installs the suite (its own browser download skipped: the machine's Chromium plays), builds
# its test packages, starts Parcours on a fresh database with a tenant `lts`, runs the suite with
# lms.parcours.cjs, and prints "N passed, N failed, N skipped".
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
db="${1:-sqlite}"
port="${PORT:-3104}"
catapult="${CATAPULT_DIR:-$here/.catapult}"
if [ ! -d "$catapult/lts" ]; then
  git clone --depth 1 https://github.com/adlnet/CATAPULT "$catapult"
fi
echo "CATAPULT $(git -C "$catapult" rev-parse --short HEAD 2>/dev/null || echo '?')"
lts="$catapult/lts"
if [ ! -d "$lts/node_modules" ]; then
  (cd "$lts" && PUPPETEER_SKIP_CHROMIUM_DOWNLOAD=1 npm ci --no-audit --no-fund)
fi
if [ ! -d "$lts/pkg/dist" ]; then
  # webpack 5.45 hashes with md4, which OpenSSL 3 keeps in its legacy provider.
  (cd "$lts/pkg" && NODE_OPTIONS=--openssl-legacy-provider npx webpack)
fi
cp "$here/lms.parcours.cjs" "$lts/lib/lms.parcours.cjs"

work="$(mktemp -d)"
server=""
trap '[ -n "$server" ] && kill "$server" 2>/dev/null; rm -rf "$work"' EXIT
mkdir -p "$work/content/tenants/lts/courses" "$work/content/packages" "$work/data"
cat > "$work/content/tenants/lts/tenant.yaml" <<YAML
alias: lts
name: CATAPULT LMS Test Suite
hostnames: [localhost]
hosts: { app: 'http://localhost:$port' }
settings:
  defaultLocale: en
  login: { internal: true, oidc: null }
  invitationCodes: { enabled: false, simplePassword: false }
  certification: { allowed: false, type: attestation }
  allowContactTeacher: false
  profile:
    fields: { firstname: true, lastname: true, email: true, username: false, birthday: false }
  requiredDatas: false
  emailNotifications: false
  demoVideoUrl: null
  legal: { cgu: null, rgpd: null }
courseTypes:
  - id: standard
    title: Training module
    settings: { hints: false, feedbacks: false, retry: false }
categories:
  - { id: lts, title: LMS Test Suite }
YAML
cat > "$work/content/tenants/lts/users.yaml" <<YAML
users:
  - { id: admin, email: admin@lts.test, password: 'Lts#Learner2026', firstname: A, lastname: Admin, roles: [admin] }
YAML

export DATA_DIR="$work/data" PORT="$port" NODE_ENV=production LOG_LEVEL=warn LOGIN_RATE_LIMIT=100000
export JWT_SECRET="catapult-lms-test-suite-secret-0123456789"
export SEED_CONTENT="$work/content"
if [ "$db" = postgres ]; then
  export DATABASE_URL="${DATABASE_URL:-postgres://postgres@127.0.0.1:5432/test}"
  export PG_SCHEMA="catapult_$$"
fi
if curl -s -o /dev/null "http://localhost:$port/"; then
  echo "port $port is taken: set PORT" >&2
  exit 1
fi
node "$here/build.mjs" ".test-dist-catapult-$db"
dist="$root/apps/api/.test-dist-catapult-$db"
export PARCOURS_IMPORT_WORKER="$dist/import-worker.js"
node "$dist/import.js" "$work/content" >/dev/null
# exec: $server is the server's own process, which the trap ends.
(cd "$root" && exec node "$dist/server.js") > "$work/server.log" 2>&1 &
server=$!
for _ in $(seq 1 120); do
  curl -fs "http://localhost:$port/api/contexts/current" >/dev/null 2>&1 && break
  sleep 1
done

cat > "$lts/.env" <<ENV
CATAPULT_LMS=./lib/lms.parcours.cjs
ENV
set +e
(cd "$lts" && PARCOURS_URL="http://localhost:$port" PARCOURS_CONTENT="$work/content" PARCOURS_ROOT="$root" \
  JEST_PUPPETEER_CONFIG="$here/jest-puppeteer.config.cjs" \
  npx jest --runInBand --testTimeout=180000 --json --outputFile="$work/result.json" ${JEST_ARGS:-} > "$here/.last-run-$db.log" 2>&1)
tail -n 40 "$here/.last-run-$db.log"
set -e
node -e '
const r = require(process.argv[1]);
const failed = r.testResults.flatMap((f) => f.assertionResults.filter((a) => a.status === "failed").map((a) => a.fullName));
for (const f of failed) console.log("failed: " + f);
console.log(`cmi5 LMS Test Suite (${process.argv[2]}): ${r.numPassedTests} passed, ${r.numFailedTests} failed, ${r.numPendingTests} skipped`);
' "$work/result.json" "$db"
if [ "$db" = postgres ]; then
  psql "$DATABASE_URL" -qc "DROP SCHEMA IF EXISTS $PG_SCHEMA CASCADE" >/dev/null 2>&1 || true
fi
