/**
 * The typed-mcp plugin for webpack 5: `plugins: [typedMcp()]` in `webpack.config.js`, with a
 * TypeScript loader such as `swc-loader` for `.ts` files. The plugin's loader runs with
 * `enforce: "pre"`, before the loader that strips the types.
 */
import { typedMcp } from "./index.js";

export type { TypedMcpOptions } from "./index.js";
/** Creates the webpack plugin. See {@link TypedMcpOptions}. */
const webpack: (typeof typedMcp)["webpack"] = typedMcp.webpack;
export default webpack;
