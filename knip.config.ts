// knip (`pnpm lint:exports`, docs/contributing.md "Formatting and linting"): finds exports no
// other file imports, files nothing imports and dependencies nothing uses, across the pnpm workspace.
// A file counts as used when an entry below reaches it through imports; an export, when some
// reached file imports it.
import type { KnipConfig } from "knip";

/**
 * Plugin-input projects the tests build, not code of the project. (The scaffold templates
 * and the expected outputs lie outside every `project` pattern below, so knip never reads them.)
 */
const FIXTURES = ["test/**/fixtures/**", "test/**/fixture/**"];

const config: KnipConfig = {
  // Debian's packages the scale-out tests start (installed by scripts/ensure-scale-tools.sh, not npm).
  ignoreBinaries: ["nginx", "redis-server"],
  workspaces: {
    // The workspace root holds the tests and the scripts: each test file, each script (run by
    // `node scripts/x.mjs`) and the files the tests start in a process of their own are entries;
    // knip's vitest plugin adds vitest.config.ts, vitest.scaffold.config.ts and their setup files.
    ".": {
      entry: [
        "test/**/*.test.ts",
        "test/babel/runner.mjs",
        "test/oracles/clients/run.mjs",
        "test/packaging/attw.mjs",
        "scripts/**/*.mjs",
      ],
      project: ["test/**/*.{ts,mjs}", "scripts/**/*.mjs", "*.ts"],
      ignore: FIXTURES,
      ignoreDependencies: [
        // Imported through the package's own node_modules (the copy the package uses), which
        // test/tsconfig.json "paths" also names.
        "@modelcontextprotocol/server",
        "oxc-parser",
        // Named by string in a bundler, Babel or webpack configuration the tests build with.
        "@babel/preset-typescript",
        "babel-loader",
        "swc-loader",
        "ts-loader",
        "@swc/core",
        "zod",
        "ajv-formats",
        // test/oracles' client libraries: installed by npm into .tmp/oracles from their own
        // package.json (test/oracles/clients), resolved there by test/oracles/clients/run.mjs.
        "@google/genai",
        "@langchain/mcp-adapters",
        "@langchain/google-genai",
        "@langchain/openai",
        "@mastra/schema-compat",
        "@openai/agents-core",
        "openai",
        // Binaries and packages the tests start or resolve by path.
        "@typescript/typescript6",
        "bun",
        "deno",
        "workerd",
        "node24",
        "typed-mcp-test-conformance-runner",
      ],
    },
    // Each package: the entries are the files its package.json "exports" and "bin" name (knip
    // maps dist/ back to src/ through the package's tsconfig.json). `typed-mcp/internal`, the
    // entry only generated code imports (the virtual unit modules included), is one of those
    // "exports", so it is an entry like the others.
    "packages/*": {
      project: ["src/**/*.ts"],
    },
    // The playground and the example: MCP servers the plugin builds, from src/server.ts.
    playground: { entry: ["src/server.ts"], project: ["src/**/*.ts"] },
    "examples/*": { entry: ["src/server.ts"], project: ["src/**/*.ts"] },
  },
};

export default config;
