/** The original server's tool module, imported only for its image constant. */
declare module "@modelcontextprotocol/server-everything/dist/tools/get-tiny-image.js" {
  /** The MCP logo, a 20×20 PNG, base64. */
  export const MCP_TINY_IMAGE: string;
}
