// webpack.config.js — `webpack` bundles src/main.ts into dist/server.js
import { fileURLToPath } from "node:url";
import typedMcp from "@typed-mcp/unplugin/webpack";

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
    devtoolModuleFilenameTemplate: "[absolute-resource-path]", // stack traces name the real .ts file
  },
  resolve: { extensions: [".ts", ".js"], extensionAlias: { ".js": [".ts", ".js"] } },
  module: {
    rules: [
      {
        test: /\.[cm]?ts$/,
        exclude: /node_modules/,
        use: { loader: "swc-loader", options: { jsc: { parser: { syntax: "typescript" }, target: "es2022" }, sourceMaps: true } },
      },
    ],
  },
  plugins: [typedMcp()],
};
