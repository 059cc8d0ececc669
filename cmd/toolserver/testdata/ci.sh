#!/bin/sh
# The "Use in CI" steps of the README as one script: start the tool server
# on a free port, wait until it serves, run the team's tests against it
# with UNDERSTUDY_URL set, and stop it.
#
#   ci.sh COMMAND [ARG...]      e.g. ci.sh python3 -m pytest agent_tests/
#
# TOOLSERVER names the binary; when it is unset the script builds it with
# `go build ./cmd/toolserver` in the clone of Understudy it belongs to (or
# the one UNDERSTUDY_SRC names, when the script is copied elsewhere).
# TOOLSERVER_ARGS adds flags (-mode replay -cache fixtures/ ...).
set -eu

if [ "$#" -eq 0 ]; then
	echo "usage: $0 COMMAND [ARG...]" >&2
	exit 2
fi
work="$(mktemp -d)"
if [ -z "${TOOLSERVER:-}" ]; then
	src="${UNDERSTUDY_SRC:-$(dirname "$0")/../../..}"
	(cd "$src" && go build -o "$work/toolserver" ./cmd/toolserver)
	TOOLSERVER="$work/toolserver"
fi
ready="$work/url"
# shellcheck disable=SC2086 # TOOLSERVER_ARGS is a list of flags
"$TOOLSERVER" -addr 127.0.0.1:0 -ready-file "$ready" ${TOOLSERVER_ARGS:-} >"$work/stdout" 2>"$work/stderr" &
pid=$!
stop() {
	kill -INT "$pid" 2>/dev/null || true
	wait "$pid" 2>/dev/null || true
	rm -rf "$work"
}
trap stop EXIT

# -ready-file appears, whole, once the server serves.
tries=0
while [ ! -s "$ready" ]; do
	if ! kill -0 "$pid" 2>/dev/null; then
		echo "toolserver exited before serving:" >&2
		cat "$work/stderr" >&2
		exit 1
	fi
	tries=$((tries + 1))
	if [ "$tries" -gt 300 ]; then
		echo "toolserver did not serve within 30 s" >&2
		exit 1
	fi
	sleep 0.1
done
UNDERSTUDY_URL="$(cat "$ready")"
export UNDERSTUDY_URL
echo "toolserver serving at $UNDERSTUDY_URL"

"$@"
