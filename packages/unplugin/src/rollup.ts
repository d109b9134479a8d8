/**
 * The typed-mcp plugin for Rollup: `plugins: [typedMcp(), esbuild()]` in `rollup.config.js`.
 * Rollup ignores `enforce`: list it before the plugin that strips TypeScript
 * (e.g. `rollup-plugin-esbuild`), so it sees the types.
 */
import { typedMcp } from "./index.js";

export type { TypedMcpOptions } from "./index.js";
/** Creates the Rollup plugin. See {@link TypedMcpOptions}. */
const rollup: (typeof typedMcp)["rollup"] = typedMcp.rollup;
export default rollup;
