// rspack.config.mjs — `rspack build` bundles src/main.ts into dist/server.js
// Deliberately the same shape as the webpack template: each template is copied alone into a new project, so they share nothing.
import { fileURLToPath } from "node:url";
import typedMcp from "@typed-mcp/unplugin/rspack";

export default {
  mode: "production",
  target: "node20",
  entry: "./src/main.ts",
  devtool: "source-map",
  experiments: { outputModule: true },
  optimization: { minimize: false },
  output: {
    path: fileURLToPath(new URL("dist", import.meta.url)),
    filename: "server.js",
    module: true,
    chunkFormat: "module",
    library: { type: "module" },
    devtoolModuleFilenameTemplate: "[absolute-resource-path]",
  },
  resolve: { extensions: [".ts", ".js"], extensionAlias: { ".js": [".ts", ".js"] } },
  module: {
    rules: [
      {
        test: /\.[cm]?ts$/,
        exclude: /node_modules/,
        loader: "builtin:swc-loader",
        options: { jsc: { parser: { syntax: "typescript" }, target: "es2022" } },
        type: "javascript/auto",
      },
    ],
  },
  plugins: [typedMcp()],
};
