/**
 * `typed-mcp` re-exports the SDK's error classes and content/result types (issue 11), so an app
 * never imports `@modelcontextprotocol/server` itself: they must be the SDK's own objects (one
 * copy, `instanceof` works) with the codes the MCP spec gives them.
 */
import * as typedMcp from "typed-mcp";
import { describe, expect, expectTypeOf, it } from "vitest";

// The SDK copy typed-mcp's dist imports (ESM resolves the pnpm symlink to one real path).
const SDK_DIR = new URL("../../packages/typed-mcp/node_modules/@modelcontextprotocol/server/", import.meta.url);
const sdk = (await import(new URL("dist/index.mjs", SDK_DIR).href)) as typeof import("@modelcontextprotocol/server");
type SdkTextContent = import("@modelcontextprotocol/server").TextContent;

describe("typed-mcp re-exports the SDK's errors and types", () => {
  it("exports the SDK's own error classes, not copies", () => {
    for (const name of [
      "ProtocolError",
      "ProtocolErrorCode",
      "UrlElicitationRequiredError",
      "ResourceNotFoundError",
      "MissingRequiredClientCapabilityError",
      "UnsupportedProtocolVersionError",
      "SdkError",
      "SdkErrorCode",
    ] as const) {
      expect(typedMcp[name], name).toBe(sdk[name]);
    }
  });

  it("UrlElicitationRequiredError is the JSON-RPC error -32042 (MCP 2025-11-25, URL mode elicitation)", () => {
    const elicitation = {
      mode: "url" as const,
      message: "Sign in",
      url: "https://example.com/login",
      elicitationId: "e1",
    };
    const e = new typedMcp.UrlElicitationRequiredError([elicitation]);
    expect(e).toBeInstanceOf(typedMcp.ProtocolError);
    expect(e.code).toBe(-32042);
    expect(e.data).toEqual({ elicitations: [elicitation] });
  });

  it("ProtocolErrorCode has the JSON-RPC 2.0 §5.1 codes", () => {
    expect(typedMcp.ProtocolErrorCode.InvalidParams).toBe(-32602);
    expect(typedMcp.ProtocolErrorCode.MethodNotFound).toBe(-32601);
    expect(typedMcp.ProtocolErrorCode.InternalError).toBe(-32603);
  });

  it("exports the content and result types", () => {
    expectTypeOf<typedMcp.TextContent>().toEqualTypeOf<SdkTextContent>();
    const block: typedMcp.TextContent = { type: "text", text: "hi" };
    expect(block.type).toBe("text");
  });
});
