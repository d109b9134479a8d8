#!/usr/bin/env node
// The last line of .ci/run: `node scripts/count-tests.mjs REPORT.json…` prints
// `N passed, N failed` over vitest JSON reports (`--reporter=json`). A test counts as failed when
// it failed; a test file that failed without a failed test (its import or a `beforeAll` threw, so
// its tests were never run) counts as one failure; a missing report (that run did not finish)
// counts as one failure and is named on stderr. Each failed test is named on stderr (file, test,
// the first line of its message), so a failure in a long run can be found. Always exits 0: .ci/run's status comes from the runs.
import { existsSync, readFileSync } from "node:fs";

let passed = 0;
let failed = 0;
for (const file of process.argv.slice(2)) {
  if (!existsSync(file)) {
    console.error(`${file} is missing: that run did not finish`);
    failed++;
    continue;
  }
  const report = JSON.parse(readFileSync(file, "utf8"));
  passed += report.numPassedTests;
  failed += report.numFailedTests;
  for (const suite of report.testResults ?? []) {
    for (const a of suite.assertionResults ?? []) {
      if (a.status === "failed") {
        console.error(
          `FAILED ${file}: ${suite.name} > ${a.fullName}: ${String(a.failureMessages?.[0] ?? "").split("\n")[0]}`,
        );
      }
    }
    if (suite.status === "failed" && !suite.assertionResults.some((a) => a.status === "failed")) {
      console.error(`${suite.name} failed before its tests ran: ${String(suite.message).split("\n")[0]}`);
      failed++;
    }
  }
}
console.log(`${passed} passed, ${failed} failed`);
