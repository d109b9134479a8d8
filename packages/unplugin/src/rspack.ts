/**
 * The typed-mcp plugin for Rspack: `plugins: [typedMcp()]` in `rspack.config.js`, with
 * `builtin:swc-loader` for `.ts` files. The plugin's loader runs with `enforce: "pre"`, before
 * the loader that strips the types.
 */
import { typedMcp } from "./index.js";

export type { TypedMcpOptions } from "./index.js";
/** Creates the Rspack plugin. See {@link TypedMcpOptions}. */
const rspack: (typeof typedMcp)["rspack"] = typedMcp.rspack;
export default rspack;
