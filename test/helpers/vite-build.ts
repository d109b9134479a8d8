/** Builds a fixture project with the typed-mcp Vite plugin, as the plugin's users build a Node server. */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { build } from "vite";
import typedMcp from "../../packages/unplugin/dist/vite.js";

/** A finished build: one `<entry>.js` per entry in `outDir`. */
export interface PluginBuild {
  /** The temporary folder holding the output. */
  outDir: string;
  /** The path of entry `name`'s output file. */
  file(name: string): string;
  /** Imports entry `name`'s output (running its top level). */
  load(name: string): Promise<Record<string, any>>;
  /** Deletes `outDir`. */
  remove(): Promise<void>;
}

/**
 * Builds `<root>/<entry>.ts` for each of `entries` in one Vite SSR build (Node 20, everything
 * bundled, the plugin with its default options, no config file) into a fresh temporary folder
 * whose name starts with `prefix`.
 */
export async function buildWithPlugin(root: string, entries: string[], prefix: string): Promise<PluginBuild> {
  const outDir = await mkdtemp(join(tmpdir(), prefix));
  await build({
    root,
    configFile: false,
    logLevel: "silent",
    plugins: [typedMcp()],
    ssr: { noExternal: true },
    build: {
      ssr: true,
      outDir,
      target: "node20",
      rollupOptions: {
        input: Object.fromEntries(entries.map((e) => [e, join(root, `${e}.ts`)])),
        output: { entryFileNames: "[name].js" },
      },
    },
  });
  const file = (name: string) => join(outDir, `${name}.js`);
  return {
    outDir,
    file,
    load: (name) => import(pathToFileURL(file(name)).href),
    remove: () => rm(outDir, { recursive: true, force: true }),
  };
}
