/**
 * Server modules run through Vite's dev server with the Environment API's module runner
 * (`createServer` + `createServerModuleRunner(server.environments.ssr)`), the way an MCP server
 * author runs the server in development (docs/bundlers.md "Watch mode and cache"). The edit
 * scenario of scenario.ts: Vite's file watcher passes changes to the plugin's `watchChange`;
 * files reported with `addWatchFile` join the module graph as dependencies of the tool module,
 * so a change to an imported interface invalidates it; closing the server ends the sidecar.
 * A "rebuild" here is the next `runner.import` of the entry.
 */
import { join } from "node:path";
import { createServer, createServerModuleRunner } from "vite";
import typedMcp from "@typed-mcp/unplugin/vite";
import { listServer } from "./helpers.ts";
import { watchScenario, type Outcome } from "./scenario.ts";

watchScenario("vite-dev", async (root, pluginOptions) => {
  const server = await createServer({
    root,
    configFile: false,
    logLevel: "silent",
    appType: "custom",
    plugins: [typedMcp(pluginOptions)],
    server: { middlewareMode: true, ws: false },
    ssr: { external: ["typed-mcp"] },
    optimizeDeps: { noDiscovery: true, include: [] },
  });
  const runner = createServerModuleRunner(server.environments.ssr);
  const seen: string[] = [];
  server.watcher.on("all", (event, path) => seen.push(`${event} ${path}`));
  const entry = join(root, "src/server.ts");
  const load = async (): Promise<Outcome> => {
    try {
      const mod = (await runner.import(entry)) as { server: { fetch(r: Request): Promise<Response> } };
      return { ok: true, tools: await listServer(mod.server) };
    } catch (e) {
      return { ok: false, error: String((e as Error)?.message ?? e) };
    }
  };
  return {
    async until(check, ms = 15_000) {
      const end = Date.now() + ms;
      for (;;) {
        const outcome = await load();
        if (check(outcome)) return;
        if (Date.now() > end) throw new Error(`no matching module state within ${ms} ms; last: ${JSON.stringify(outcome).slice(0, 300)}; watcher: ${seen.slice(-6).join(", ")}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    },
    async close() {
      await runner.close();
      await server.close();
    },
  };
});
