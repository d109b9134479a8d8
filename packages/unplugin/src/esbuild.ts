/**
 * The typed-mcp plugin for esbuild: `plugins: [typedMcp()]` in the `build` options.
 * It transforms `.ts`/`.mts`/`.cts`/`.tsx` modules in an `onLoad` callback and hands the result
 * to esbuild's own TypeScript loader.
 */
import { typedMcp } from "./index.js";

export type { TypedMcpOptions } from "./index.js";
/** Creates the esbuild plugin. See {@link TypedMcpOptions}. */
const esbuild: (typeof typedMcp)["esbuild"] = typedMcp.esbuild;
export default esbuild;
