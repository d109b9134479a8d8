// Shared expectations and helpers of the runtime tests. Expected strings are written by hand from
// docs/mapping.md (§1 key order, §2 keyword order, §5, §6, §7, §9), not copied from output.

/** place_order as a client on the newest revision sees it (spec §1–§4). */
export const PLACE_ORDER_FULL =
  '{"name":"place_order","description":"Places an order.",' +
  '"inputSchema":{"type":"object","properties":{' +
  '"items":{"type":"array","description":"The lines to order.","items":{"type":"object","properties":{"sku":{"type":"string"},"qty":{"type":"integer","minimum":1}},"required":["sku","qty"]}},' +
  '"rush":{"type":"boolean","description":"Ship today.","default":false}},' +
  '"required":["items"],"additionalProperties":false},' +
  '"outputSchema":{"type":"object","properties":{"id":{"type":"string"},"total":{"type":"number"}},"required":["id","total"]},' +
  '"annotations":{"title":"Place order","readOnlyHint":false}}';

/** place_order for 2025-03-26: no outputSchema (spec §6 last paragraph). */
export const PLACE_ORDER_2025_03_26 =
  '{"name":"place_order","description":"Places an order.",' +
  '"inputSchema":{"type":"object","properties":{' +
  '"items":{"type":"array","description":"The lines to order.","items":{"type":"object","properties":{"sku":{"type":"string"},"qty":{"type":"integer","minimum":1}},"required":["sku","qty"]}},' +
  '"rush":{"type":"boolean","description":"Ship today.","default":false}},' +
  '"required":["items"],"additionalProperties":false},' +
  '"annotations":{"title":"Place order","readOnlyHint":false}}';

/** place_order for 2024-11-05: no outputSchema, no annotations. */
export const PLACE_ORDER_2024_11_05 =
  '{"name":"place_order","description":"Places an order.",' +
  '"inputSchema":{"type":"object","properties":{' +
  '"items":{"type":"array","description":"The lines to order.","items":{"type":"object","properties":{"sku":{"type":"string"},"qty":{"type":"integer","minimum":1}},"required":["sku","qty"]}},' +
  '"rush":{"type":"boolean","description":"Ship today.","default":false}},' +
  '"required":["items"],"additionalProperties":false}}';

/** The quick-path tool `add` (no description, annotations from options). */
export const ADD_FULL =
  '{"name":"add","inputSchema":{"type":"object","properties":{"a":{"type":"number"},"b":{"type":"number"}},"required":["a","b"],"additionalProperties":false},"annotations":{"readOnlyHint":true}}';

/** show_weather for a client that negotiated MCP Apps (spec §9). */
export const SHOW_WEATHER_APPS =
  '{"name":"show_weather","description":"Shows the weather.","inputSchema":{"type":"object","properties":{"city":{"type":"string","description":"The city."}},"required":["city"],"additionalProperties":false},"_meta":{"ui":{"resourceUri":"ui://weather/view"}}}';
/** show_weather for a client that did not: an ordinary tool. */
export const SHOW_WEATHER_PLAIN =
  '{"name":"show_weather","description":"Shows the weather.","inputSchema":{"type":"object","properties":{"city":{"type":"string","description":"The city."}},"required":["city"],"additionalProperties":false}}';
export const REFRESH_VIEW_APPS =
  '{"name":"refresh_view","description":"Refreshes the view.","inputSchema":{"type":"object","properties":{},"additionalProperties":false},"_meta":{"ui":{"resourceUri":"ui://weather/view","visibility":["app"]}}}';

export const ORDER_TOOL_NAMES = ["place_order", "explode", "refuse", "wait_for_abort", "whoami", "version", "add"];

/** Exact result texts (spec §5: the seed's sentence, then the §5 table's second sentence; §7). */
export const invalid = (path: string, second: string) =>
  `{"content":[{"type":"text","text":"Argument '${path}' is not valid. ${second}"}],"isError":true}`;
export const FAILED = '{"content":[{"type":"text","text":"The tool failed."}],"isError":true}';
export const TIMED_OUT = '{"content":[{"type":"text","text":"The tool timed out."}],"isError":true}';

/** The capabilities of a client that negotiates MCP Apps. */
export const APPS_CAPABILITIES = {
  extensions: { "io.modelcontextprotocol/ui": { mimeTypes: ["text/html;profile=mcp-app"] } },
};

/** The JSON-RPC messages of an HTTP response body (test/helpers/sse.ts, the suite's one SSE reader). */
export { messagesOf } from "../helpers/sse.ts";

/** The raw text of the tool named `name` inside a raw `tools/list` response body, cut from the bytes. */
export function rawTool(body: string, name: string): string | undefined {
  const start = body.indexOf(`{"name":${JSON.stringify(name)}`);
  if (start < 0) return undefined;
  let depth = 0;
  let inString = false;
  for (let i = start; i < body.length; i++) {
    const c = body[i];
    if (inString) {
      if (c === "\\") i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === "{") depth++;
    else if (c === "}" && --depth === 0) return body.slice(start, i + 1);
  }
  return undefined;
}

export async function until(check: () => boolean, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error("condition not met in time");
    await new Promise((r) => setTimeout(r, 10));
  }
}
