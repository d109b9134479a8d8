// One Vite run of a benchmark project in its own process (scripts/bench/projects.mjs runs it under
// GNU time for wall time and peak RSS in a full run). Prints one JSON line on stdout: the answer of
// scripts/bench/vite-run.mjs `runVite` for the command line, whose modes that module lists:
//   node vite-child.mjs build <dir> <typed|zod> <node|worker> <minify 0|1>
//   node vite-child.mjs profile <dir> <typed|zod> <node|worker> <minify 0|1>
//   node vite-child.mjs watch <dir> <typed|zod> <n> <edits> [simple|real]
import { runVite } from "./vite-run.mjs";

console.log(JSON.stringify(await runVite(process.argv.slice(2))));
