#!/usr/bin/env bash
# Part of `npm run test:all` (scripts/test-all.mjs; not of `npm test`): the scale-out tests
# (test/store/balanced.test.ts and the Redis half of test/store/contract.test.ts, full tier only;
# docs/scaling.md "Tests") run Debian's redis-server and nginx on loopback ports. Installs them
# with apt-get when missing and we may (root, apt-get present). Never fails the command: if they
# cannot be installed, those tests fail and say why.
set -u
missing=()
command -v redis-server >/dev/null 2>&1 || missing+=(redis-server)
command -v nginx >/dev/null 2>&1 || [ -x /usr/sbin/nginx ] || missing+=(nginx)
[ ${#missing[@]} -eq 0 ] && exit 0
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
  echo "Installing Debian's ${missing[*]} for the scale-out tests…" >&2
  { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null; } ||
    echo "Could not install ${missing[*]}: test/store/balanced.test.ts will fail." >&2
  # The packages start system services; the tests start their own on free ports.
  { systemctl disable --now redis-server nginx || service redis-server stop; service nginx stop; } >/dev/null 2>&1 || true
else
  echo "No ${missing[*]} (install Debian's packages as root): test/store/balanced.test.ts will fail." >&2
fi
exit 0
