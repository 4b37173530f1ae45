#!/usr/bin/env bash
# The package as a user gets it: pack the tarball, install it with --omit=dev into an empty scratch
# directory, run the `coverage` bin, serve the sandbox and answer an estimate with curl, then call the
# server through `coverage-service/client` from a plain .mjs file. Run by .ci/run after the tests;
# deploy/Dockerfile runs the same npm commands.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
SCRATCH="$(mktemp -d)"
SERVER_PID=""
cleanup() {
  if [ -n "$SERVER_PID" ] && kill -0 "$SERVER_PID" 2>/dev/null; then kill -TERM "$SERVER_PID"; wait "$SERVER_PID" 2>/dev/null || true; fi
  rm -rf "$SCRATCH"
}
trap cleanup EXIT

# 1. Pack (prepare builds dist/ first) and install the tarball alone, production dependencies only.
TARBALL="$(cd "$ROOT" && npm pack --silent --pack-destination "$SCRATCH" | tail -n1)"
echo "pack-check: $TARBALL ($(du -k "$SCRATCH/$TARBALL" | cut -f1) kB, $(tar -tzf "$SCRATCH/$TARBALL" | wc -l) files)"
cd "$SCRATCH"
npm install --omit=dev --no-audit --no-fund "./$TARBALL"
for dev in typescript tsx eslint; do
  if [ -e "node_modules/$dev" ]; then echo "pack-check: devDependency $dev was installed" >&2; exit 1; fi
done

# 2. The bin.
npx coverage --help

# 3. The server, in sandbox mode on a free port, with a key of our choosing.
PORT="$(node -e "const s=require('node:net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})")"
URL="http://127.0.0.1:$PORT"
export COVERAGE_DEV_KEY="cov_dev_pack_check_$(node -e "console.log(require('node:crypto').randomBytes(12).toString('hex'))")"
COVERAGE_DATA_DIR="$SCRATCH/data" HOST=127.0.0.1 PORT="$PORT" LOG_LEVEL=warn node_modules/.bin/coverage serve >"$SCRATCH/serve.log" 2>&1 &
SERVER_PID=$!
for _ in $(seq 1 100); do
  curl -sf "$URL/readyz" >/dev/null 2>&1 && break
  kill -0 "$SERVER_PID" 2>/dev/null || { cat "$SCRATCH/serve.log" >&2; exit 1; }
  sleep 0.2
done
curl -sf "$URL/readyz" >/dev/null || { echo "pack-check: server not ready" >&2; cat "$SCRATCH/serve.log" >&2; exit 1; }

ESTIMATE="$(curl -sS "$URL/v1/estimate" -H "apikey: $COVERAGE_DEV_KEY" -H 'content-type: application/json' \
  -d '{"member_id":"10010MHNA","member_first_name":"Avery","member_last_name":"Walsh","member_dob":"1988-03-14","provider_npi":"1234567893","provider_session_cost":15000}')"
echo "pack-check: curl estimate: $ESTIMATE"
node -e 'const e = JSON.parse(process.argv[1]); if (e.member_obligation !== 3000) { console.error("pack-check: expected member_obligation 3000"); process.exit(1); }' "$ESTIMATE"

# 4. The typed client, imported by name the way an integrating app does.
cat >check-client.mjs <<'EOF'
import assert from 'node:assert/strict';
import { CoverageApiError, CoverageClient } from 'coverage-service/client';

const client = new CoverageClient({ baseUrl: process.env.COVERAGE_URL, apiKey: process.env.COVERAGE_DEV_KEY });
const est = await client.estimate({ member_id: '10010MHNA', member_first_name: 'Avery', member_last_name: 'Walsh', member_dob: '1988-03-14', provider_session_cost: 15000 });
assert.equal(est.member_obligation, 3000);
const denied = await new CoverageClient({ baseUrl: process.env.COVERAGE_URL, apiKey: 'cov_not_a_key' }).payers().catch((e) => e);
assert.ok(denied instanceof CoverageApiError && denied.status === 401, String(denied));
console.log(`check-client: estimate member_obligation ${est.member_obligation}; a bad key throws ${denied.error_code}`);
EOF
COVERAGE_URL="$URL" node check-client.mjs

kill -TERM "$SERVER_PID"
wait "$SERVER_PID" || { echo "pack-check: server did not exit cleanly on SIGTERM" >&2; exit 1; }
SERVER_PID=""
echo "pack-check: ok"
