/**
 * The typed-mcp plugin for Rolldown: `plugins: [typedMcp()]` in `rolldown.config.js`.
 * Rolldown strips TypeScript itself, after every plugin's `transform`, so the plugin sees the
 * types.
 */
import { typedMcp } from "./index.js";

export type { TypedMcpOptions } from "./index.js";
/** Creates the Rolldown plugin. See {@link TypedMcpOptions}. */
const rolldown: (typeof typedMcp)["rolldown"] = typedMcp.rolldown;
export default rolldown;
