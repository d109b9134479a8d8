/**
 * What an author needs from the official MCP SDK (`@modelcontextprotocol/server`), re-exported
 * so that an application imports only `typed-mcp` and every bundle holds one SDK copy (issue 11;
 * the test in test/packaging/scaffold greps a scaffolded bundle). These are the SDK's own classes
 * and types, not copies: `instanceof` works across typed-mcp and the SDK.
 *
 * - Errors (MCP spec "Error handling", JSON-RPC 2.0 §5.1): `ProtocolError` (a JSON-RPC error
 *   with `code` from `ProtocolErrorCode`, thrown from a handler to answer with that error),
 *   `UrlElicitationRequiredError` (JSON-RPC error `-32042`, spec 2025-11-25 "URL mode
 *   elicitation": the client must open the URLs in `elicitations` first),
 *   `ResourceNotFoundError` (resources/read of an unknown URI, `-32002`),
 *   `MissingRequiredClientCapabilityError`, `UnsupportedProtocolVersionError`, and the SDK's
 *   local errors `SdkError` / `SdkErrorCode` (timeouts, closed connections).
 * - Content and result types (MCP spec "Tool result", "Prompts", "Resources").
 *
 * @packageDocumentation
 */
export {
  // DNS-rebinding protection for `server.fetch` served on a local address by Bun, Deno or your own
  // Node adapter (`serveHttp` checks Host itself; docs/security.md "DNS-rebinding protection").
  hostHeaderValidationResponse,
  localhostAllowedHostnames,
  MissingRequiredClientCapabilityError,
  ProtocolError,
  ProtocolErrorCode,
  ResourceNotFoundError,
  SdkError,
  SdkErrorCode,
  UnsupportedProtocolVersionError,
  UrlElicitationRequiredError,
} from "@modelcontextprotocol/server";
export type {
  AudioContent,
  AuthInfo,
  ClientCapabilities,
  CreateMessageRequestParams,
  CreateMessageResult,
  ElicitRequestFormParams,
  ElicitRequestURLParams,
  ElicitResult,
  EmbeddedResource,
  ImageContent,
  Implementation,
  LoggingLevel,
  ResourceLink,
  ServerCapabilities,
  TextContent,
  ToolAnnotations,
} from "@modelcontextprotocol/server";
