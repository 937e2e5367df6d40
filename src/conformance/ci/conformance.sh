#!/usr/bin/env bash
# The messaging-contract conformance suite against your own service, in any language: start it,
# wait until it answers, run the suite, write the JUnit report, and stop the service whatever
# happened (and, with CONFORMANCE_MARKDOWN, a Markdown summary for the job's page). Needs bash and Node 20.19+ (for npx); no package.json. Copy it into your repository
# (ci/conformance.sh) and set, in your CI's variables and secrets:
#
#   SERVICE_START       starts your service in the background: "docker compose up -d --build",
#                       "./gradlew bootRun", "go run ./cmd/server" (run as a job of this script)
#   SERVICE_STOP        stops it, when stopping the job is not enough: "docker compose down"
#   SERVICE_URL         its base URL, e.g. http://127.0.0.1:8080 (with a base path if it has one)
#   SERVICE_READY_URL   what answers once it is up (default SERVICE_URL); any HTTP answer counts
#   READY_TIMEOUT       seconds to wait for it (default 120)
#   CONFORMANCE_PACKAGE the suite: a published version (@messaging-contract/conformance@2.1.0)
#                       or a tarball you keep (./vendor/messaging-contract-conformance-2.1.0.tgz).
#                       Until the package is on a registry your CI reaches, keep its tarball in your
#                       repository (`npm pack` of it) or point npm at your own registry (.npmrc)
#   MESSAGING_API_KEY, MESSAGING_API_KEY_NO_BALANCE, MESSAGING_INTEGRATOR_TOKEN
#                       the credentials of your test accounts (secrets; never echoed)
#   CONFORMANCE_VARS    optional: the vars file naming your deployment's fixtures
#   CONFORMANCE_REPORT  the JUnit report (default conformance-junit.xml)
#   CONFORMANCE_MARKDOWN optional: also write the report as Markdown there, for a CI job's page
#                       (GitHub: append it to $GITHUB_STEP_SUMMARY; GitLab: keep it as an artifact)
#   CONFORMANCE_ARGS    optional: more options, e.g. "--profile strict --reset-url http://..."
#
# Exit code: the suite's (0 every check passed, 1 a check failed, 2 the run could not run), 3 when
# the service never answered, 4 when the suite could not be fetched or started (before the
# service is started at all).
set -euo pipefail

: "${SERVICE_URL:?set SERVICE_URL to the base URL of your service}"
: "${CONFORMANCE_PACKAGE:?set CONFORMANCE_PACKAGE to @messaging-contract/conformance@<version> or a tarball}"
ready_url=${SERVICE_READY_URL:-$SERVICE_URL}
ready_timeout=${READY_TIMEOUT:-120}
report=${CONFORMANCE_REPORT:-conformance-junit.xml}
markdown=${CONFORMANCE_MARKDOWN:-}

# The suite first: a package npx cannot fetch (a name no registry serves yet, a missing tarball)
# is said as such, not as a failed check.
echo "conformance.sh: fetching the suite: $CONFORMANCE_PACKAGE"
fetch_log=$(mktemp)
if ! npx -y -p "$CONFORMANCE_PACKAGE" messaging-conformance --help >/dev/null 2>"$fetch_log"; then
  echo "conformance.sh: the suite could not be fetched or started from CONFORMANCE_PACKAGE=$CONFORMANCE_PACKAGE (exit 4); npx said:" >&2
  tail -n 5 "$fetch_log" >&2
  rm -f "$fetch_log"
  exit 4
fi
rm -f "$fetch_log"

started=''
stop_service() {
  local code=$?
  if [ -n "${SERVICE_STOP:-}" ]; then bash -c "$SERVICE_STOP" || true; fi
  # The job and everything it started (its process group: set -m below gives it one).
  if [ -n "$started" ] && kill -0 "$started" 2>/dev/null; then
    kill -TERM -- "-$started" 2>/dev/null || kill -TERM "$started" 2>/dev/null || true
    for _ in $(seq 50); do kill -0 "$started" 2>/dev/null || break; sleep 0.1; done
    kill -KILL -- "-$started" 2>/dev/null || true
  fi
  exit "$code"
}
trap stop_service EXIT
trap 'exit 130' INT TERM

if [ -n "${SERVICE_START:-}" ]; then
  echo "conformance.sh: starting the service: $SERVICE_START"
  set -m
  bash -c "$SERVICE_START" &
  started=$!
  set +m
fi

echo "conformance.sh: waiting up to ${ready_timeout} s for $ready_url"
if ! node -e '
  const [url, seconds] = process.argv.slice(1);
  const until = Date.now() + Number(seconds) * 1000;
  (async () => {
    while (Date.now() < until) {
      try { await fetch(url, { signal: AbortSignal.timeout(2000) }); process.exit(0); } catch {}
      await new Promise((r) => setTimeout(r, 250));
    }
    process.exit(1);
  })();
' "$ready_url" "$ready_timeout"; then
  echo "conformance.sh: $ready_url did not answer within ${ready_timeout} s" >&2
  exit 3
fi

args=(--server "$SERVICE_URL" --reporter junit --output "$report")
if [ -n "$markdown" ]; then args+=(--reporter markdown --output "$markdown"); fi
if [ -n "${CONFORMANCE_VARS:-}" ]; then args+=(--vars "$CONFORMANCE_VARS"); fi
# shellcheck disable=SC2206 # more options, split as words on purpose
if [ -n "${CONFORMANCE_ARGS:-}" ]; then args+=($CONFORMANCE_ARGS); fi

rm -f "$report"
if [ -n "$markdown" ]; then rm -f "$markdown"; fi
set +e
npx -y -p "$CONFORMANCE_PACKAGE" messaging-conformance "${args[@]}"
code=$?
set -e
if [ -f "$report" ]; then
  echo "conformance.sh: the suite exited $code; the JUnit report is $report"
else
  echo "conformance.sh: the suite exited $code and wrote no JUnit report" >&2
fi
if [ -n "$markdown" ]; then
  if [ -f "$markdown" ]; then
    echo "conformance.sh: the Markdown summary is $markdown"
  else
    echo "conformance.sh: the suite wrote no Markdown summary" >&2
  fi
fi
exit "$code"
