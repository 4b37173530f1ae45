#!/usr/bin/env bash
# The packages as users get them. The client workspace (coverage-service-client) is packed and installed
# alone into an empty directory: one package, no dependencies, its declarations typechecked by a small
# program. The server is packed and installed with --omit=dev into another (beside the client tarball,
# its one dependency not fetched from the registry before both are published) and npm must not warn
# EBADENGINE on this Node. Then the `coverage` bin runs, the sandbox serves, an estimate is answered
# through curl, through `coverage-service/client` in the server's install and through
# `coverage-service-client` in the client's, and the end-to-end suite runs against the install. Run by
# .ci/run after the tests; deploy/Dockerfile runs the same npm commands.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
SCRATCH="$(mktemp -d)"
SERVER_PID=""
cleanup() {
  if [ -n "$SERVER_PID" ] && kill -0 "$SERVER_PID" 2>/dev/null; then kill -TERM "$SERVER_PID"; wait "$SERVER_PID" 2>/dev/null || true; fi
  rm -rf "$SCRATCH"
}
trap cleanup EXIT

# 1. Pack the client workspace (its prepack builds it) and the server (prepare builds dist/ first).
CLIENT_TARBALL="$(cd "$ROOT" && npm pack --silent --workspace coverage-service-client --pack-destination "$SCRATCH" | tail -n1)"
echo "pack-check: $CLIENT_TARBALL ($(du -k "$SCRATCH/$CLIENT_TARBALL" | cut -f1) kB, $(tar -tzf "$SCRATCH/$CLIENT_TARBALL" | wc -l) files)"
TARBALL="$(cd "$ROOT" && npm pack --silent --pack-destination "$SCRATCH" | tail -n1)"
echo "pack-check: $TARBALL ($(du -k "$SCRATCH/$TARBALL" | cut -f1) kB, $(tar -tzf "$SCRATCH/$TARBALL" | wc -l) files)"

# 2. The client alone, as an app that only calls the API installs it: exactly one package, and its
#    declarations compile under strict settings with nothing else installed (lib.dom types fetch).
CLIENT_APP="$SCRATCH/client-app"
mkdir "$CLIENT_APP"
cd "$CLIENT_APP"
echo '{ "private": true, "type": "module" }' >package.json
started=$(date +%s)
npm install --no-audit --no-fund "../$CLIENT_TARBALL"
installed="$(npm ls --all --parseable | tail -n +2)"
echo "pack-check: the client installed alone in $(($(date +%s) - started)) s, $(du -sk node_modules | cut -f1) kB, $(echo "$installed" | wc -l) package(s)"
if [ "$installed" != "$CLIENT_APP/node_modules/coverage-service-client" ]; then
  echo "pack-check: installing the client alone brought more than itself:" >&2
  echo "$installed" >&2
  exit 1
fi
echo '{ "compilerOptions": { "strict": true, "noEmit": true, "module": "nodenext", "target": "es2022", "lib": ["es2022", "dom"], "types": [] } }' >tsconfig.json
cat >check-types.ts <<'EOF'
import { CoverageApiError, CoverageClient, type ErrorCode, type EstimateRequest, type EstimateResponse } from 'coverage-service-client';

const request: EstimateRequest = { member_id: '10010MHNA', member_first_name: 'Avery', member_last_name: 'Walsh', member_dob: '1988-03-14' };
// @ts-expect-error plan_status is one of the schema's statuses
const notAStatus: EstimateResponse['plan_status'] = 'MAYBE';
const notFound: ErrorCode = 'MEMBER_NOT_FOUND';
export async function memberPays(client: CoverageClient): Promise<number | null> {
  try {
    return (await client.estimate(request)).member_obligation;
  } catch (err) {
    if (err instanceof CoverageApiError && err.error_code === notFound) return null;
    throw err;
  }
}
export { notAStatus };
EOF
node "$ROOT/node_modules/typescript/bin/tsc" -p .
echo "pack-check: the client's declarations typecheck alone"

# 3. The server's tarball, production dependencies only. No dependency may refuse this Node (engines):
#    a repository's `overrides` do not reach a tarball's users, so package.json pins instead.
SERVER_APP="$SCRATCH/server-app"
mkdir "$SERVER_APP"
cd "$SERVER_APP"
npm install --omit=dev --no-audit --no-fund "../$CLIENT_TARBALL" "../$TARBALL" 2>&1 | tee "$SCRATCH/install.log"
if grep -q EBADENGINE "$SCRATCH/install.log"; then
  echo "pack-check: a dependency refuses Node $(node -v) (EBADENGINE above)" >&2
  exit 1
fi
for dev in typescript tsx eslint; do
  if [ -e "node_modules/$dev" ]; then echo "pack-check: devDependency $dev was installed" >&2; exit 1; fi
done

# 4. The bin.
npx coverage --help

# 5. The server, in sandbox mode on a free port, with a key of our choosing.
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

# 6. The typed client, imported by name the way an integrating app does: through the server package
#    (coverage-service/client) in the server's install, and alone (coverage-service-client) in the client's.
check_client() {
  cat <<EOF
import assert from 'node:assert/strict';
import { CoverageApiError, CoverageClient } from '$1';

const client = new CoverageClient({ baseUrl: process.env.COVERAGE_URL, apiKey: process.env.COVERAGE_DEV_KEY });
const est = await client.estimate({ member_id: '10010MHNA', member_first_name: 'Avery', member_last_name: 'Walsh', member_dob: '1988-03-14', provider_session_cost: 15000 });
assert.equal(est.member_obligation, 3000);
const denied = await new CoverageClient({ baseUrl: process.env.COVERAGE_URL, apiKey: 'cov_not_a_key' }).payers().catch((e) => e);
assert.ok(denied instanceof CoverageApiError && denied.status === 401, String(denied));
console.log(\`check-client ($1): estimate member_obligation \${est.member_obligation}; a bad key throws \${denied.error_code}\`);
EOF
}
check_client coverage-service/client >"$SERVER_APP/check-client.mjs"
(cd "$SERVER_APP" && COVERAGE_URL="$URL" node check-client.mjs)
check_client coverage-service-client >"$CLIENT_APP/check-client.mjs"
(cd "$CLIENT_APP" && COVERAGE_URL="$URL" node check-client.mjs)

kill -TERM "$SERVER_PID"
wait "$SERVER_PID" || { echo "pack-check: server did not exit cleanly on SIGTERM" >&2; exit 1; }
SERVER_PID=""

# 7. The end-to-end suite (test/e2e/, which npm test runs against `npm start`) against this install:
#    its `coverage serve` and `coverage` bin, every feature family once over HTTP, webhooks included.
(cd "$ROOT" && COVERAGE_E2E_INSTALL="$SERVER_APP" node --import tsx --test test/e2e/*.test.ts)
echo "pack-check: ok"
