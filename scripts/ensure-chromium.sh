#!/usr/bin/env bash
# Part of `npm run test:all` (scripts/test-all.mjs; not of `npm test`): the MCP Apps view test
# (test/apps/browser.test.ts, full tier only) drives a real browser, Debian's chromium at
# /usr/bin/chromium (through playwright-core; browser downloads are not possible here). Installs it with apt-get when it is missing and we may (root, apt-get present).
# Never fails the command: if chromium cannot be installed, that one test fails and says why.
set -u
[ -x /usr/bin/chromium ] && exit 0
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
  echo "Installing Debian's chromium for the MCP Apps browser test…" >&2
  { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; } ||
    echo "Could not install chromium: test/apps/browser.test.ts will fail." >&2
else
  echo "No /usr/bin/chromium (install Debian's chromium as root): test/apps/browser.test.ts will fail." >&2
fi
exit 0
