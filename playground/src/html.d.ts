/** Vite's `?raw` import: the file's text (used for the MCP Apps view, graph-view.html). */
declare module "*.html?raw" {
  const text: string;
  export default text;
}
