// Runs @arethetypeswrong on every tarball named on the command line in one process — the library
// the attw CLI runs (@arethetypeswrong/core, the CLI's version), with the CLI's own exit rule and
// table (`@arethetypeswrong/cli/internal/*`), so TypeScript is loaded once, not once per tarball.
// Prints one JSON array: `{ tarball, problems }`, `problems` "" when the profile finds none, else
// the CLI's table. A process of its own: vitest's workers resolve with the `development`
// condition, which names @arethetypeswrong/core's TypeScript source.
import { readFileSync } from "node:fs";
import { checkPackage, createPackageFromTarballData } from "@arethetypeswrong/core";
import { getExitCode } from "@arethetypeswrong/cli/internal/getExitCode";
import { typed } from "@arethetypeswrong/cli/internal/render";

/** attw's `--profile esm-only` (the CLI's profiles.js): no node10, no CommonJS `require` resolution. */
const ESM_ONLY = { ignoreResolutions: ["node10", "node16-cjs"] };

const results = [];
for (const tarball of process.argv.slice(2)) {
  const analysis = await checkPackage(createPackageFromTarballData(new Uint8Array(readFileSync(tarball))));
  const problems =
    getExitCode(analysis, ESM_ONLY) === 0
      ? ""
      : await typed(analysis, { ...ESM_ONLY, format: "table", emoji: false, summary: true });
  results.push({ tarball, problems });
}
process.stdout.write(JSON.stringify(results));
