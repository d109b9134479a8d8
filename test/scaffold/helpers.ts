// Shared by the scaffold tests: create a project with the real create-typed-mcp bin in a temp
// folder outside the workspace, install it from the tarballs with plain npm, run its scripts,
// and talk to the server with the official client over stdio and Streamable HTTP.
import { execFile, spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify, stripVTControlCharacters } from "node:util";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { expect } from "vitest";

const run = promisify(execFile);
const root = fileURLToPath(new URL("../..", import.meta.url));

/** The environment of a user's shell: without the npm_* / pnpm variables the workspace's pnpm run sets. */
function userEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!/^(npm_|pnpm_|PNPM_)/i.test(k) && k !== "INIT_CWD") env[k] = v;
  return { ...env, ...extra };
}

/** A scaffolded, installed project. */
export interface Project {
  dir: string;
  manifest: {
    type?: string;
    scripts: Record<string, string>;
    dependencies: Record<string, string>;
    devDependencies: Record<string, string>;
  };
  /** Runs `npm run <script>` in the project; rejects with its output on failure. */
  npm(script: string): Promise<string>;
  cleanup(): void;
}

/** Scaffolds `--bundler b --runtime r --packages <tarballs>` (with its npm install) into a fresh temp folder. */
export async function scaffold(bundler: string, runtime: string, packages: string): Promise<Project> {
  const parent = mkdtempSync(join(tmpdir(), `typed-mcp-scaffold-${bundler}-${runtime}-`));
  const dir = join(parent, "my-server");
  // The tarball's bin, as `npm create typed-mcp` runs it: unpacked by npm exec from the tarball.
  const tgz = join(packages, "create-typed-mcp-0.1.0.tgz");
  await run(
    "npm",
    [
      "exec",
      "--yes",
      `--package=${tgz}`,
      "--",
      "create-typed-mcp",
      dir,
      "--bundler",
      bundler,
      "--runtime",
      runtime,
      "--packages",
      packages,
    ],
    {
      cwd: parent,
      env: userEnv(),
      maxBuffer: 64 << 20,
    },
  ).catch((e: { stdout?: string; stderr?: string; message: string }) => {
    throw new Error(`create-typed-mcp failed: ${e.message}\n${e.stdout ?? ""}${e.stderr ?? ""}`);
  });
  const manifest = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as Project["manifest"];
  return {
    dir,
    manifest,
    npm: async (script) => {
      try {
        const r = await run("npm", ["run", script], { cwd: dir, env: userEnv(), maxBuffer: 64 << 20 });
        return r.stdout + r.stderr;
      } catch (e) {
        const err = e as { stdout?: string; stderr?: string; message: string };
        throw new Error(`npm run ${script} failed: ${err.message}\n${err.stdout ?? ""}${err.stderr ?? ""}`);
      }
    },
    cleanup: () => rmSync(parent, { recursive: true, force: true, maxRetries: 5 }),
  };
}

// A free 127.0.0.1 port, for servers that cannot take port 0 (workerd): the runtimes tests' helper.
export { freePort } from "../runtimes/helpers.ts";

/** A started server process: its output so far, and a stop that waits for its exit. */
export interface Started {
  child: ChildProcess;
  output(): string;
  stop(): Promise<void>;
}

/**
 * Starts `command args` in `dir` with the user's environment plus `env`, collecting stdout and
 * stderr, in its own process group: `stop` ends the whole group (`npm start` does not pass
 * SIGTERM on to the server it started).
 */
export function start(dir: string, command: string, args: string[], env: Record<string, string> = {}): Started {
  const child = spawn(command, args, {
    cwd: dir,
    env: userEnv(env),
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  let seen = "";
  child.stdout!.on("data", (t: Buffer) => (seen += t.toString()));
  child.stderr!.on("data", (t: Buffer) => (seen += t.toString()));
  return {
    child,
    output: () => seen,
    stop: async () => {
      await new Promise<void>((done) => {
        if (child.exitCode !== null || child.signalCode !== null) return done();
        child.once("exit", () => done());
        process.kill(-child.pid!, "SIGTERM");
      });
      // The group's other processes (`next start` under npx) may outlive the child: wait (bounded) until they are gone.
      for (let waited = 0; waited < 10_000 && groupAlive(child.pid!); waited += 50)
        await new Promise((r) => setTimeout(r, 50));
    },
  };
}

/** Whether a process of group `pgid` is still running. */
function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

/** {@link start}, resolved with the first `http://127.0.0.1:…/mcp` URL the process prints. */
async function startHttp(
  dir: string,
  command: string,
  args: string[],
  env: Record<string, string> = {},
): Promise<Started & { url: URL }> {
  const s = start(dir, command, args, env);
  for (let waited = 0; waited < 30_000; waited += 50) {
    const m = /http:\/\/127\.0\.0\.1:\d+\/mcp/.exec(s.output());
    if (m) return { ...s, url: new URL(m[0]) };
    if (s.child.exitCode !== null)
      throw new Error(`${command} exited with ${s.child.exitCode} before printing a URL:\n${s.output()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  await s.stop();
  throw new Error(`${command} printed no URL within 30 s:\n${s.output()}`);
}

/** The official client over Streamable HTTP. */
export async function httpClient(url: URL): Promise<Client> {
  const client = new Client({ name: "scaffold-test", version: "0.0.1" });
  await client.connect(new StreamableHTTPClientTransport(url));
  return client;
}

/** The official client over stdio, launching `command args` in `dir`. */
export async function stdioClient(dir: string, command: string, args: string[]): Promise<Client> {
  const client = new Client({ name: "scaffold-test", version: "0.0.1" });
  await client.connect(
    new StdioClientTransport({ command, args, cwd: dir, env: userEnv() as Record<string, string>, stderr: "pipe" }),
  );
  return client;
}

/**
 * How many copies of the SDK a bundle holds, per package: the number of times it contains a
 * message string that occurs once in that package's code — `@modelcontextprotocol/core`'s
 * protocol layer ("Unknown message type") and `@modelcontextprotocol/server`'s Streamable HTTP
 * handler ("Parse error: Invalid JSON-RPC message"). Both are on every server's path, so tree
 * shaking keeps exactly one of each; a second SDK copy repeats them.
 */
export function sdkCopies(bundle: string): { core: number; server: number } {
  const count = (s: string) => bundle.split(s).length - 1;
  return { core: count("Unknown message type"), server: count("Parse error: Invalid JSON-RPC message") };
}

/** The `add_note` tool of src/server.ts as spec §1–§6 list it. */
const ADD_NOTE = {
  name: "add_note",
  description: "Adds a note and returns it.",
  inputSchema: {
    type: "object",
    properties: { text: { type: "string", description: "The note's text, e.g. `Buy milk`." } },
    required: ["text"],
    additionalProperties: false,
  },
  outputSchema: {
    type: "object",
    properties: { id: { type: "integer" }, text: { type: "string", description: "The note's text." } },
    required: ["id", "text"],
  },
};

/** Lists and calls the scaffolded server's tool, resource template and prompt, checking the spec's values. */
export async function exercise(client: Client, name = "my-server"): Promise<void> {
  const { tools } = await client.listTools();
  expect(tools).toEqual([ADD_NOTE]);
  const call = await client.callTool({ name: "add_note", arguments: { text: "Buy milk" } });
  // spec §6: an object result is structuredContent plus the same JSON as text.
  expect(call.structuredContent).toEqual({ id: 2, text: "Buy milk" });
  expect(call.content).toEqual([{ type: "text", text: '{"id":2,"text":"Buy milk"}' }]);
  const bad = await client.callTool({ name: "add_note", arguments: { text: 5 } });
  expect(bad).toEqual({
    content: [{ type: "text", text: "Argument 'text' is not valid. Expected a string, got a number." }],
    isError: true,
  });
  const { resourceTemplates } = await client.listResourceTemplates();
  expect(resourceTemplates).toEqual([
    { uriTemplate: "notes://{id}", name: "note", description: "One note as plain text.", mimeType: "text/plain" },
  ]);
  const read = await client.readResource({ uri: "notes://1" });
  expect(read.contents).toEqual([{ uri: "notes://1", mimeType: "text/plain", text: `Hello from ${name}.` }]);
  const { prompts } = await client.listPrompts();
  expect(prompts).toEqual([
    {
      name: "summarise_notes",
      description: "Asks the model to summarise every note.",
      arguments: [{ name: "style", description: "How long the summary should be.", required: false }],
    },
  ]);
  const got = await client.getPrompt({ name: "summarise_notes", arguments: { style: "long" } });
  expect(got.messages).toEqual([
    {
      role: "user",
      content: { type: "text", text: `Write a long summary of these notes:\n- Hello from ${name}.\n- Buy milk` },
    },
  ]);
}

/**
 * Runs `npm test` (vitest) in the project and returns its summary's count, e.g. `3 passed (3)`
 * (colour codes removed); rejects with the output when it fails.
 */
export async function passedTests(project: Project): Promise<string | undefined> {
  const out = stripVTControlCharacters(await project.npm("test"));
  return /Tests\s+(\d+ passed \(\d+\))/.exec(out)?.[1];
}

/** Starts `npm start` in `dir` with `env` (PORT 0), connects the official client over Streamable HTTP and {@link exercise}s it; stops both. */
export async function exerciseHttp(dir: string, env: Record<string, string> = {}): Promise<void> {
  const server = await startHttp(dir, "npm", ["start"], { PORT: "0", ...env });
  const client = await httpClient(server.url);
  try {
    await exercise(client);
  } finally {
    await client.close();
    await server.stop();
  }
}

export { root };
