/**
 * The typed-mcp plugin for Vite: `plugins: [typedMcp()]` in `vite.config.ts`.
 * Runs with `enforce: "pre"`, before Vite's own TypeScript transform.
 */
import { typedMcp } from "./index.js";

export type { TypedMcpOptions } from "./index.js";
/** Creates the Vite plugin. See {@link TypedMcpOptions}. */
const vite: (typeof typedMcp)["vite"] = typedMcp.vite;
export default vite;
