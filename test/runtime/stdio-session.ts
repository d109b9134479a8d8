// A raw stdio session on the stdio fixture server (fixtures/stdio-server.mjs), shared by the stdio tests.
import { spawn } from "node:child_process";
import type { ChildProcessWithoutNullStreams } from "node:child_process";
import { fileURLToPath } from "node:url";
import { until } from "./helpers.js";

const FIXTURE = fileURLToPath(new URL("./fixtures/stdio-server.mjs", import.meta.url));

/** A raw stdio session: send JSON-RPC lines, get the raw response line of an id. */
export class RawSession {
  readonly child: ChildProcessWithoutNullStreams;
  readonly lines: string[] = [];
  #buffer = "";
  constructor(env: Record<string, string> = {}) {
    this.child = spawn(process.execPath, [FIXTURE], { env: { ...process.env, ...env }, stdio: "pipe" });
    this.child.stdout.setEncoding("utf8");
    this.child.stdout.on("data", (chunk: string) => {
      this.#buffer += chunk;
      let nl: number;
      while ((nl = this.#buffer.indexOf("\n")) >= 0) {
        this.lines.push(this.#buffer.slice(0, nl));
        this.#buffer = this.#buffer.slice(nl + 1);
      }
    });
  }
  send(message: unknown): void {
    this.child.stdin.write(JSON.stringify(message) + "\n");
  }
  async request(id: number, method: string, params?: unknown): Promise<string> {
    this.send({ jsonrpc: "2.0", id, method, ...(params !== undefined && { params }) });
    let line: string | undefined;
    await until(() => (line = this.lines.find((l) => JSON.parse(l).id === id)) !== undefined, 10_000);
    return line!;
  }
  async initialize(protocolVersion: string, capabilities: unknown = {}): Promise<Record<string, any>> {
    const line = await this.request(0, "initialize", {
      protocolVersion,
      capabilities,
      clientInfo: { name: "raw", version: "0" },
    });
    this.send({ jsonrpc: "2.0", method: "notifications/initialized" });
    return JSON.parse(line).result;
  }
  close(): void {
    this.child.stdin.end();
    this.child.kill();
  }
}
