// Pipelined stdio pings (issue 25 row 9): spawns the stdio fixture server (the built typed-mcp,
// test/runtime/fixtures/stdio-server.mjs) as a real child process, initializes, writes N `ping`
// requests in ONE write, then — once all N are answered — one more ping. Prints the time until
// the N-th answer and the time the extra ping waited, in milliseconds.
// Usage: node scripts/bench/stdio-pings.mjs [N=50000] [timeoutSeconds=120]
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

const n = Number(process.argv[2] ?? 50_000);
const timeoutMs = Number(process.argv[3] ?? 120) * 1000;
const fixture = fileURLToPath(new URL("../../test/runtime/fixtures/stdio-server.mjs", import.meta.url));
const child = spawn(process.execPath, [fixture], { stdio: ["pipe", "pipe", "inherit"] });
const timer = setTimeout(() => {
  console.log(JSON.stringify({ n, error: `not answered within ${timeoutMs} ms`, answered }));
  child.kill();
  process.exit(1);
}, timeoutMs);

let buffer = "";
let answered = 0;
let waiting;
child.stdout.setEncoding("utf8");
child.stdout.on("data", (chunk) => {
  buffer += chunk;
  let start = 0;
  let nl;
  while ((nl = buffer.indexOf("\n", start)) >= 0) {
    answered++;
    start = nl + 1;
  }
  buffer = buffer.slice(start);
  if (waiting !== undefined && answered >= waiting.count) {
    const w = waiting;
    waiting = undefined;
    w.resolve();
  }
});
const answers = (count) => new Promise((resolve) => (waiting = { count, resolve }));
const line = (id, method, params) => JSON.stringify({ jsonrpc: "2.0", id, method, ...(params && { params }) }) + "\n";

child.stdin.write(
  line(0, "initialize", {
    protocolVersion: "2025-11-25",
    capabilities: {},
    clientInfo: { name: "bench", version: "0" },
  }),
);
await answers(1);
child.stdin.write(JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }) + "\n");
let batch = "";
for (let i = 1; i <= n; i++) batch += line(i, "ping");
const t0 = performance.now();
child.stdin.write(batch);
await answers(1 + n);
const t1 = performance.now();
child.stdin.write(line(n + 1, "ping"));
await answers(2 + n);
const t2 = performance.now();
clearTimeout(timer);
console.log(JSON.stringify({ n, allAnsweredMs: Math.round(t1 - t0), extraPingMs: Math.round(t2 - t1) }));
child.stdin.end();
child.kill();
