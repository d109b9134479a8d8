/**
 * The code frame and location handed to a bundler with a build error (spec §10: every
 * diagnostic fails the build with file, line, column, code and message).
 */

/** Where a bundler's `this.error` gets its location, and how it shows it. */
export interface ErrorLocation {
  /** `{ file, line, column }`; `line` 1-based; `column` as described in {@link errorLocation}. */
  loc: { file: string; line: number; column: number };
  /** A code frame with a caret under the position (when the text is known); Vite and Rollup print it. */
  frame?: string;
}

/**
 * The `loc` and `frame` for a diagnostic at 1-based `line`/`column` of `code` (the module's
 * text; `undefined` when the diagnostic is in another file: no frame then).
 *
 * Rollup, Rolldown and Vite document `loc.column` as 0-based, but print it as is in the header
 * of the error (`[plugin typed-mcp] src/tools.ts:3:23`) and in the dev overlay, whose "open in
 * editor" link counts columns from 1 — one column left of the spot, and one less than the
 * `file:line:column` lines of our message, the CLI and TypeScript. So for those bundlers the
 * column is passed 1-based, and the frame is supplied here (otherwise Vite would draw its caret
 * from the column as if 0-based, one character too far right). esbuild draws its own snippet and
 * caret from a 0-based column, so it gets the 0-based one (`zeroBased`).
 */
export function errorLocation(
  code: string | undefined,
  file: string,
  line: number,
  column: number,
  zeroBased: boolean,
): ErrorLocation {
  const loc = { file, line, column: zeroBased ? column - 1 : column };
  return code === undefined ? { loc } : { loc, frame: codeFrame(code, line, column) };
}

/**
 * A code frame: up to two lines before and after 1-based `line`, each as `  n | text`, and a
 * caret under 1-based `column` (tabs before the caret are kept, so it lines up).
 */
function codeFrame(code: string, line: number, column: number): string {
  const lines = code.split(/\r\n|\r|\n/);
  if (lines.length > 1 && lines[lines.length - 1] === "") lines.pop(); // the file's final line break
  const first = Math.max(1, line - 2);
  const last = Math.min(lines.length, line + 2);
  const width = String(last).length;
  const out: string[] = [];
  for (let n = first; n <= last; n++) {
    const text = lines[n - 1] ?? "";
    out.push(`${String(n).padStart(width)} | ${text}`);
    if (n === line) {
      const pad = text.slice(0, Math.max(0, column - 1)).replace(/[^\t]/g, " ");
      out.push(`${" ".repeat(width)} | ${pad}^`);
    }
  }
  return out.join("\n");
}
