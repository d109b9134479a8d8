// The cold-start rows of `pnpm bench` (issue 26 "Node cold start, spawn → first `tools/list` over
// stdio" and "workerd cold start"), typed-mcp against the SDK + zod on the same 5-tool project
// (scripts/bench/project.mjs), each built as its user would ship it:
// - Node: a stdio entry (typed-mcp's `serveStdio(server)`; the SDK's `McpServer` connected to its
//   `StdioServerTransport`), bundled by Vite for Node (SSR, everything bundled, not minified). One
//   run = spawn `node server.js`, `initialize`, `notifications/initialized`, `tools/list`; the time
//   from the spawn to the `tools/list` answer (5 tools, checked).
// - workerd: the Worker bundle of the projects' worker build (minified), the only module of a
//   workerd config. One run = spawn `workerd serve` (socket on port 0, reported on fd 3), one
//   2026-07-28 `tools/list` POST; the time from the spawn to its answer (5 tools, checked).
// Whole processes, the two flavours in turn in every round (A B A B …), so a change in the
// machine's load reaches both alike; the medians of each and the median of the per-round ratios.
//
// `node scripts/bench/cold-start.mjs [rounds]` (after `pnpm build`) runs these rows alone.
import { spawn } from "node:child_process";
import { mkdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "vite";
import typedMcp from "@typed-mcp/unplugin/vite";
import { viteConfig, writeProject } from "./project.mjs";
import { median } from "./rounds.mjs";
import { request2026, resultOf } from "./call.mjs";

const TOOLS = 5;
const here = dirname(fileURLToPath(import.meta.url));

/** The stdio entry of a project written by writeProject (5 tools: one tool module). */
function stdioEntry(flavor) {
  if (flavor === "typed")
    return `import { serveStdio } from "typed-mcp/stdio";\nimport { server } from "./server.js";\n\nserveStdio(server);\n`;
  return `import { McpServer } from "@modelcontextprotocol/server";\nimport { StdioServerTransport } from "@modelcontextprotocol/server/stdio";\nimport { register0 } from "./tools0.js";\n\nconst server = new McpServer({ name: "bench", version: "1.0.0" });\nregister0(server);\nawait server.connect(new StdioServerTransport());\n`;
}

/** Builds `flavor`'s project in `dir` for `target`: the Node stdio bundle or the minified Worker bundle. @returns the bundle's path. */
async function bundle(root, dir, flavor, target) {
  const config = viteConfig({ root, dir, flavor, target, minify: target === "worker", typedMcp });
  const sdkDir = realpathSync(join(root, "packages/typed-mcp/node_modules/@modelcontextprotocol/server"));
  const sdkStdio = JSON.parse(readFileSync(join(sdkDir, "package.json"), "utf8")).exports["./stdio"].import.default;
  const alias = [{ find: /^@modelcontextprotocol\/server\/stdio$/, replacement: join(sdkDir, sdkStdio) }];
  const entry = target === "node" ? "src/stdio.ts" : "src/server.ts";
  await build({
    ...config,
    resolve: { alias: [...alias, ...config.resolve.alias] },
    build: { ...config.build, ssr: entry },
  });
  return join(config.build.outDir, "server.js");
}

/** Resolves with the parsed JSON-RPC answers of `stream` (newline-delimited), one callback per line. */
function lines(stream, onLine) {
  let buffer = "";
  stream.setEncoding("utf8");
  stream.on("data", (chunk) => {
    buffer += chunk;
    let nl;
    while ((nl = buffer.indexOf("\n")) >= 0) {
      const line = buffer.slice(0, nl);
      buffer = buffer.slice(nl + 1);
      if (line.trim()) onLine(line);
    }
  });
}

/** Throws unless `result` lists the project's 5 tools. */
function checkListing(result, who) {
  const names = result?.tools?.map((t) => t.name).sort();
  const want = Array.from({ length: TOOLS }, (_, i) => `tool${i}`).sort();
  if (JSON.stringify(names) !== JSON.stringify(want))
    throw new Error(`${who}: tools/list answered ${JSON.stringify(result)}`);
}

/** Kills `child` (its process group) and waits for its exit. */
async function stop(child) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once("exit", r));
  try {
    process.kill(-child.pid, "SIGKILL");
  } catch {
    child.kill("SIGKILL");
  }
  await exited;
}

/** One Node run: milliseconds from the spawn of `node file` to the answer of the first `tools/list` over stdio. */
export async function nodeRun(file) {
  const t0 = performance.now();
  const child = spawn(process.execPath, [file], { stdio: ["pipe", "pipe", "pipe"], detached: true });
  const send = (m) => child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", ...m })}\n`);
  let stderr = "";
  child.stderr.on("data", (d) => (stderr += d));
  try {
    const listed = await new Promise((resolve, reject) => {
      child.once("exit", (code) => reject(new Error(`node ${file} exited (${code}) before tools/list:\n${stderr}`)));
      lines(child.stdout, (line) => {
        const m = JSON.parse(line);
        if (m.id === 1) {
          send({ method: "notifications/initialized" });
          send({ id: 2, method: "tools/list" });
        } else if (m.id === 2) resolve({ ms: performance.now() - t0, result: m.result });
      });
      send({
        id: 1,
        method: "initialize",
        params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "bench", version: "1" } },
      });
    });
    checkListing(listed.result, file);
    return listed.ms;
  } finally {
    await stop(child);
  }
}

/** The workerd config serving `bundle` (a path relative to the config file) as the only module of one Worker on 127.0.0.1, port chosen by workerd. */
function workerdConfig(bundle) {
  return `using Workerd = import "/workerd/workerd.capnp";

const config :Workerd.Config = (
  services = [ (name = "main", worker = .mcpWorker) ],
  sockets = [ (name = "http", address = "127.0.0.1:0", http = (), service = "main") ],
);

const mcpWorker :Workerd.Worker = (
  modules = [ (name = "worker.js", esModule = embed ${JSON.stringify(bundle)}) ],
  compatibilityDate = "2026-11-01",
  compatibilityFlags = ["nodejs_compat"],
);
`;
}

/** One workerd run: milliseconds from the spawn of `workerd serve config` to the answer of the first `tools/list`. */
export async function workerdRun(workerd, config) {
  const t0 = performance.now();
  const child = spawn(workerd, ["serve", config, "--control-fd=3"], {
    stdio: ["ignore", "ignore", "pipe", "pipe"],
    detached: true,
  });
  let stderr = "";
  child.stderr.on("data", (d) => (stderr += d));
  try {
    const port = await new Promise((resolve, reject) => {
      child.once("exit", (code) => reject(new Error(`workerd exited (${code}) before listening:\n${stderr}`)));
      lines(child.stdio[3], (line) => {
        const m = JSON.parse(line);
        if (m.event === "listen" && m.socket === "http") resolve(m.port);
      });
    });
    const result = await resultOf(await fetch(request2026("tools/list", {}, { url: `http://127.0.0.1:${port}/mcp` })));
    const ms = performance.now() - t0;
    checkListing(result, `workerd ${config}`);
    return ms;
  } finally {
    await stop(child);
  }
}

/** `rounds` runs of `run(typed)` and `run(zod)` in turn: per flavour the median ms, and the median of the per-round ratios typed / zod. */
async function paired(run, inputs, rounds) {
  await run(inputs.typed); // warm-up: the file system cache, the binary
  await run(inputs.zod);
  const ms = { typed: [], zod: [] };
  for (let i = 0; i < rounds; i++) for (const flavor of ["typed", "zod"]) ms[flavor].push(await run(inputs[flavor]));
  const ratios = ms.typed.map((t, i) => t / ms.zod[i]);
  return {
    typed: median(ms.typed),
    zod: median(ms.zod),
    ratio: median(ratios),
    min: Math.min(...ratios),
    max: Math.max(...ratios),
    rounds,
  };
}

/**
 * Runs the cold-start rows.
 * @param {{ root: string, tmp: string, quick: boolean, rounds?: number }} env `quick`: one round
 *   (after the warm-up run of each flavour).
 * @returns {Promise<{ node: object, workerd: object }>} per row: median ms of each
 *   flavour, the median ratio typed / zod and its range over the rounds, the number of rounds.
 */
export async function runColdStart({ root, tmp, quick, rounds = quick ? 1 : 15 }) {
  const files = { node: {}, worker: {} };
  for (const flavor of ["typed", "zod"]) {
    const dir = join(tmp, `cold-${flavor}`);
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    writeProject(root, dir, flavor, TOOLS);
    writeFileSync(join(dir, "src/stdio.ts"), stdioEntry(flavor));
    files.node[flavor] = await bundle(root, dir, flavor, "node");
    const worker = await bundle(root, dir, flavor, "worker");
    files.worker[flavor] = join(dir, "workerd.capnp");
    writeFileSync(files.worker[flavor], workerdConfig(relative(dir, worker)));
  }
  const node = await paired(nodeRun, files.node, rounds);
  const workerd = await paired(
    (c) => workerdRun(join(root, "node_modules/workerd/bin/workerd"), c),
    files.worker,
    rounds,
  );
  return { node, workerd };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = join(here, "../..");
  const tmp = join(root, ".tmp", `cold-start-${process.pid}`);
  try {
    const rounds = process.argv[2] ? Number(process.argv[2]) : undefined;
    console.log(JSON.stringify(await runColdStart({ root, tmp, quick: false, rounds }), null, 2));
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}
