/**
 * The library × profile table of docs/profiles.md ("What the client libraries do with each
 * profile"), between its two marker comments, from test/oracles/clients.test.ts's counts.
 */

/** One library's counts on one profile's listing of the corpus (tools per verdict). */
export interface Row {
  library: string;
  version: string;
  profile: string;
  rejected: number;
  lossy: number;
  said: number;
  unchanged: number;
  /** Of `rejected` and `lossy`: tools with an OMCW0003 (rejected), or whose every unsaid loss is at a node an OMCW0003 names or is the client's own stated limit (lossy). */
  allowed: number;
}

const BEGIN = "<!-- oracles:begin (test/oracles/clients.test.ts; TYPED_MCP_ORACLES_WRITE=1 rewrites it) -->";
const END = "<!-- oracles:end -->";

/** Renders the rows as a Markdown table. */
function render(rows: Row[]): string {
  const lines = [
    "| profile | library (version) | rejected | lossy | of which named | said | unchanged |",
    "|---|---|---|---|---|---|---|",
    ...rows.map(
      (r) =>
        `| \`${r.profile}\` | ${r.library} (${r.version}) | ${r.rejected} | ${r.lossy} | ${r.allowed} | ${r.said} | ${r.unchanged} |`,
    ),
    "| `cursor` | none public (no client library for Cursor ships a schema converter) | | | | | |",
  ];
  return lines.join("\n");
}

export const oracleTable = {
  /** `doc` with the text between the markers replaced by the table of `rows`; throws when the markers are missing. */
  replace(doc: string, rows: Row[]): string {
    const a = doc.indexOf(BEGIN);
    const b = doc.indexOf(END);
    if (a < 0 || b < a) throw new Error(`docs/profiles.md lacks the markers ${BEGIN} … ${END}`);
    return `${doc.slice(0, a + BEGIN.length)}\n${render(rows)}\n${doc.slice(b)}`;
  },
};
