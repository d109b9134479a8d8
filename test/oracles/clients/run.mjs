// The oracle runner (test/oracles/clients.test.ts): runs one profile's listings through the schema
// converters its target client libraries ship, with the libraries' own functions, under Node 22
// (test/conformance/runner's node22), from the packages test/oracles/install.mjs put in its cwd.
// No provider is called: `fetch` is replaced before any library loads, and every request a
// library would send is caught here and answered 400, so what a library converts is read from the
// request body it built. Input (stdin): `{ profile, tools: [{ name, description?, inputSchema }] }`.
// Output (stdout): `{ versions: { [library]: version }, results: { [library]: [{ schema } | { error }] } }`,
// one entry per tool in input order; `schema` is the `inputSchema` as the library would send it.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";

const sent = [];
/** Catches a request a library built (its JSON body) and answers it as a provider refusing it. */
const capture = async (_url, init) => {
  sent.push(JSON.parse(typeof init?.body === "string" ? init.body : new TextDecoder().decode(init?.body)));
  const error = { error: { code: 400, message: "oracle: no provider is called", status: "INVALID_ARGUMENT" } };
  return new Response(JSON.stringify(error), { status: 400, headers: { "content-type": "application/json" } });
};
globalThis.fetch = capture;

const require = createRequire(`${process.cwd()}/`);
const version = (name) =>
  JSON.parse(readFileSync(`${process.cwd()}/node_modules/${name}/package.json`, "utf8")).version;

/** Runs `send` (a library call that ends in a request) and returns the body it built. */
async function bodyOf(send) {
  sent.length = 0;
  try {
    await send();
  } catch (e) {
    if (!sent.length) throw e;
  }
  if (!sent.length) throw new Error("the library sent no request");
  return sent[sent.length - 1];
}
const declaration = (body) => (body.tools ?? []).flatMap((t) => t.functionDeclarations ?? [])[0];
const geminiSchema = (body) => {
  const d = declaration(body);
  return d.parametersJsonSchema ?? d.parameters;
};
const openaiSchema = (body) => {
  const t = body.tools[0];
  if ((t.function ?? t).strict !== true) throw new Error("sent without strict: true");
  return (t.function ?? t).parameters;
};
const prompt = [{ role: "user", content: [{ type: "text", text: "hi" }] }];

/** AI SDK Google provider (`packageName` 4.x or 3.x): doGenerate with the tool, as `ai`'s tool() passes it. */
async function aiSdkGoogle(packageName) {
  const { createGoogleGenerativeAI } = await import(require.resolve(packageName));
  const model = createGoogleGenerativeAI({ apiKey: "oracle", fetch: capture })("gemini-2.5-flash");
  return async (t) =>
    geminiSchema(
      await bodyOf(() =>
        model.doGenerate({
          prompt,
          tools: [{ type: "function", name: t.name, description: t.description, inputSchema: t.inputSchema }],
        }),
      ),
    );
}

/** `@google/genai`: `mcpToTool` over a client that lists the tool, or a function declaration with `parameters`. */
async function genai(mode) {
  const { GoogleGenAI, mcpToTool } = await import(require.resolve("@google/genai"));
  const ai = new GoogleGenAI({ apiKey: "oracle" });
  return async (t) => {
    const tools =
      mode === "mcpToTool"
        ? [mcpToTool({ listTools: async () => ({ tools: [t] }), callTool: async () => ({ content: [] }) })]
        : [{ functionDeclarations: [{ name: t.name, description: t.description, parameters: t.inputSchema }] }];
    return geminiSchema(
      await bodyOf(() =>
        ai.models.generateContent({
          model: "gemini-2.5-flash",
          contents: "hi",
          config: { tools, automaticFunctionCalling: { disable: true } },
        }),
      ),
    );
  };
}

/**
 * LangChain chat models: bindTools with the tool as `@langchain/mcp-adapters`' `loadMcpTools` makes
 * it (a `DynamicStructuredTool` whose schema is the listing after the adapters' own
 * `simplifyJsonSchemaForLLM`), listed by a client that answers `tools/list` with the tool.
 */
async function langchain(which) {
  const { loadMcpTools } = await import(require.resolve("@langchain/mcp-adapters"));
  const lcTool = async (t) =>
    (
      await loadMcpTools(
        "oracle",
        { listTools: async () => ({ tools: [structuredClone(t)] }) },
        { throwOnLoadError: true },
      )
    )[0];
  if (which === "google") {
    const { ChatGoogleGenerativeAI } = await import(require.resolve("@langchain/google-genai"));
    const m = new ChatGoogleGenerativeAI({ apiKey: "oracle", model: "gemini-2.5-flash", maxRetries: 0 });
    return async (t) => geminiSchema(await bodyOf(async () => m.bindTools([await lcTool(t)]).invoke("hi")));
  }
  const { ChatOpenAI } = await import(require.resolve("@langchain/openai"));
  const m = new ChatOpenAI({ apiKey: "oracle", model: "gpt-4o", maxRetries: 0, configuration: { fetch: capture } });
  return async (t) =>
    openaiSchema(await bodyOf(async () => m.bindTools([await lcTool(t)], { strict: true }).invoke("hi")));
}

/** Mastra's schema-compat layer for the provider, on the tool's JSON Schema. */
async function mastra(provider) {
  const m = await import(require.resolve("@mastra/schema-compat"));
  const Layer = provider === "google" ? m.GoogleSchemaCompatLayer : m.OpenAISchemaCompatLayer;
  const modelId = provider === "google" ? "gemini-2.5-flash" : "gpt-4o";
  const layer = new Layer({ modelId, provider, supportsStructuredOutputs: provider !== "google" });
  return async (t) => layer.processToJSONSchema(structuredClone(t.inputSchema));
}

/** OpenAI Agents SDK: `mcpToFunctionTool(tool, server, convertSchemasToStrict = true)`; a non-strict fallback is a refusal. */
async function agents() {
  const { mcpToFunctionTool } = await import(require.resolve("@openai/agents-core"));
  const server = { name: "oracle", cacheToolsList: false };
  return async (t) => {
    const ft = mcpToFunctionTool(t, server, true);
    if (ft.strict !== true) throw new Error("convertSchemasToStrict fell back to strict: false");
    return ft.parameters;
  };
}

/** `openai`'s `toStrictJsonSchema` (openai/lib/transform). */
async function openaiStrict() {
  const { toStrictJsonSchema } = await import(require.resolve("openai/lib/transform"));
  return async (t) => toStrictJsonSchema(structuredClone(t.inputSchema));
}

/** Per profile: `[library label, package whose version is reported, converter factory]`. */
const TARGETS = {
  default: [
    ["@ai-sdk/google", "@ai-sdk/google", () => aiSdkGoogle("@ai-sdk/google")],
    ["@google/genai mcpToTool", "@google/genai", () => genai("mcpToTool")],
  ],
  gemini: [
    ["@ai-sdk/google 3.x", "ai-sdk-google-3", () => aiSdkGoogle("ai-sdk-google-3")],
    ["@google/genai parameters", "@google/genai", () => genai("parameters")],
    ["LangChain ChatGoogleGenerativeAI", "@langchain/google-genai", () => langchain("google")],
    ["Mastra GoogleSchemaCompatLayer", "@mastra/schema-compat", () => mastra("google")],
  ],
  "openai-strict": [
    ["@openai/agents convertSchemasToStrict", "@openai/agents-core", agents],
    ["openai toStrictJsonSchema", "openai", openaiStrict],
    ["LangChain ChatOpenAI strict", "@langchain/openai", () => langchain("openai")],
    ["Mastra OpenAISchemaCompatLayer", "@mastra/schema-compat", () => mastra("openai")],
  ],
  cursor: [],
};

const input = JSON.parse(readFileSync(0, "utf8"));
const out = { versions: {}, results: {} };
// Libraries log their own warnings (the Agents SDK's strict fallback); stdout carries only the answer.
console.log = console.warn = console.info = console.error = () => {};
for (const [label, pkg, make] of TARGETS[input.profile] ?? []) {
  out.versions[label] = version(pkg);
  const convert = await make();
  const results = [];
  for (const t of input.tools) {
    try {
      results.push({ schema: await convert(t) });
    } catch (e) {
      results.push({ error: String(e?.message ?? e).slice(0, 300) });
    }
  }
  out.results[label] = results;
}
process.stdout.write(JSON.stringify(out));
