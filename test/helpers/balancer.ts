/**
 * Debian's nginx as a round-robin balancer on loopback for the full tier (docs/scaling.md
 * "Tests"; installed by scripts/ensure-scale-tools.sh): one nginx per call on a free port with its
 * own temp directory, in front of `upstreams` (host:port each), without buffering (SSE streams
 * pass through as they are written), and answering every response with `X-Upstream:
 * <host:port>` — the balancer's own record of which instance served it.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort, waitForPort } from "../runtimes/helpers.ts";

/** A running balancer. */
export interface Balancer {
  /** The MCP URL through the balancer. */
  readonly url: URL;
  stop(): Promise<void>;
}

/** The nginx configuration of {@link startBalancer}. */
function config(dir: string, port: number, upstreams: readonly string[]): string {
  const temp = ["client_body", "proxy", "fastcgi", "uwsgi", "scgi"].map((t) => `${t}_temp_path ${dir}/${t};`);
  return `daemon off;
master_process off;
worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 512; }
http {
  access_log off;
  ${temp.join("\n  ")}
  upstream mcp {
${upstreams.map((u) => `    server ${u} max_fails=0;`).join("\n")}
    keepalive 16;
  }
  server {
    listen 127.0.0.1:${port};
    location / {
      proxy_pass http://mcp;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host $http_host;
      proxy_buffering off;
      proxy_request_buffering off;
      proxy_read_timeout 300s;
      add_header X-Upstream $upstream_addr always;
    }
  }
}
`;
}

/** Starts nginx round-robin over `upstreams`; resolves once it accepts connections. */
export async function startBalancer(upstreams: readonly string[]): Promise<Balancer> {
  const port = await freePort();
  const dir = await mkdtemp(join(tmpdir(), "typed-mcp-nginx-"));
  await writeFile(join(dir, "nginx.conf"), config(dir, port, upstreams));
  const child: ChildProcess = spawn("nginx", ["-p", dir, "-c", join(dir, "nginx.conf"), "-e", join(dir, "error.log")], {
    stdio: "ignore",
  });
  await waitForPort(port, child, "nginx");
  return {
    url: new URL(`http://127.0.0.1:${port}/mcp`),
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
        child.kill("SIGTERM");
        await exited;
      }
      await rm(dir, { recursive: true, force: true });
    },
  };
}
