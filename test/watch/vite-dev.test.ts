/**
 * Server modules run through Vite's dev server with the Environment API's module runner
 * (`createServer` + `createServerModuleRunner(server.environments.ssr)`), the way an MCP server
 * author runs the server in development (docs/bundlers.md "Watch mode and cache"). The edit
 * scenario of scenario.ts: Vite's file watcher passes changes to the plugin's `watchChange`;
 * files reported with `addWatchFile` join the module graph as dependencies of the tool module,
 * so a change to an imported interface invalidates it; closing the server ends the sidecar.
 * A "rebuild" here is the next `runner.import` of the entry. The same scenario runs through
 * `server.ssrLoadModule`, the older API.
 */
import { join } from "node:path";
import { createServer, createServerModuleRunner } from "vite";
import typedMcp from "@typed-mcp/unplugin/vite";
import { listServer } from "./helpers.ts";
import { watchScenario, type Outcome } from "./scenario.ts";

/** Polls `load` until its outcome satisfies `check` (a "rebuild" is the next load). */
async function poll(load: () => Promise<Outcome>, check: (o: Outcome) => boolean, ms: number): Promise<void> {
  const end = Date.now() + ms;
  for (;;) {
    const outcome = await load();
    if (check(outcome)) return;
    if (Date.now() > end)
      throw new Error(`no matching module state within ${ms} ms; last: ${JSON.stringify(outcome).slice(0, 300)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** A Vite dev server for the project at `root`, as an MCP server author would start it. */
const devServer = (root: string, pluginOptions: Parameters<typeof typedMcp>[0]) =>
  createServer({
    root,
    configFile: false,
    logLevel: "silent",
    appType: "custom",
    plugins: [typedMcp(pluginOptions)],
    server: { middlewareMode: true, ws: false },
    ssr: { external: ["typed-mcp"] },
    optimizeDeps: { noDiscovery: true, include: [] },
  });

const asOutcome = async (load: () => Promise<unknown>): Promise<Outcome> => {
  try {
    const mod = (await load()) as { server: { fetch(r: Request): Promise<Response> } };
    return { ok: true, tools: await listServer(mod.server) };
  } catch (e) {
    return { ok: false, error: String((e as Error)?.message ?? e) };
  }
};

watchScenario("vite-dev module runner", async (root, pluginOptions) => {
  const server = await devServer(root, pluginOptions);
  const runner = createServerModuleRunner(server.environments.ssr);
  const entry = join(root, "src/server.ts");
  return {
    until: (check, ms = 15_000) => poll(() => asOutcome(() => runner.import(entry)), check, ms),
    async close() {
      await runner.close();
      await server.close();
    },
  };
});

watchScenario("vite-dev ssrLoadModule", async (root, pluginOptions) => {
  const server = await devServer(root, pluginOptions);
  const entry = join(root, "src/server.ts");
  return {
    until: (check, ms = 15_000) => poll(() => asOutcome(() => server.ssrLoadModule(entry)), check, ms),
    close: () => server.close(),
  };
});
