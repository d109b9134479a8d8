/**
 * The official client on a fresh stdio child serving test/runtime/fixtures/server-requests.mjs
 * (`TMCP_SERVE_STDIO=1`), with the child's stderr collected — shared by server-requests.test.ts
 * and stdio-console.test.ts.
 */
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";

const FIXTURE = fileURLToPath(new URL("./fixtures/server-requests.mjs", import.meta.url));

/** Connects; `stderr` receives each chunk the child writes there, as text. The caller closes `client`. */
export async function connectServerRequestsStdio(
  options: ConstructorParameters<typeof Client>[1] = {},
): Promise<{ client: Client; stderr: string[] }> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [FIXTURE],
    env: { ...(process.env as Record<string, string>), TMCP_SERVE_STDIO: "1" },
    stderr: "pipe",
  });
  const stderr: string[] = [];
  transport.stderr?.on("data", (chunk: Buffer) => stderr.push(chunk.toString()));
  const client = new Client({ name: "vitest-client", version: "0.0.1" }, options);
  await client.connect(transport);
  return { client, stderr };
}
