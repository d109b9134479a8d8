/** Vite's `?raw` import: the file's text (the original server's documents). */
declare module "*.md?raw" {
  const text: string;
  export default text;
}
