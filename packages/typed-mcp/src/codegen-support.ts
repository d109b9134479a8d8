/**
 * Small helpers that generated readers and writers call through `typed-mcp/internal`
 * (owned by `@typed-mcp/codegen`: it decides what generated code needs).
 *
 * @packageDocumentation
 */
export {};
