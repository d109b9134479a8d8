/**
 * `gzip-file-as-resource`: fetches an http(s) or `data:` URL (bounded in size and time), gzips it
 * and keeps it as a session resource (`demo://resource/session/<name>`), answered as a resource
 * link or as the embedded resource. Limits from the environment, as the original:
 * `GZIP_MAX_FETCH_SIZE` (bytes, default 10 MiB), `GZIP_MAX_FETCH_TIME_MILLIS` (default 30 000),
 * `GZIP_ALLOWED_DOMAINS` (comma-separated; empty allows every domain).
 */
import { gzipSync } from "node:zlib";
import { tool, ToolError, type ContentBlock, type Format } from "typed-mcp";
import type { SessionResources } from "./resources.js";

const MAX_BYTES = Number(process.env.GZIP_MAX_FETCH_SIZE ?? String(10 * 1024 * 1024));
const MAX_MILLIS = Number(process.env.GZIP_MAX_FETCH_TIME_MILLIS ?? String(30 * 1000));
const ALLOWED_DOMAINS = (process.env.GZIP_ALLOWED_DOMAINS ?? "")
  .split(",")
  .map((d) => d.trim().toLowerCase())
  .filter((d) => d.length > 0);

/**
 * The URL to fetch, checked: http, https or data; with `GZIP_ALLOWED_DOMAINS`, an http(s) host
 * that is one of them or a subdomain.
 * @throws ToolError `Error processing file <url>: <why>`.
 */
function checkedUrl(data: string): URL {
  try {
    const url = new URL(data);
    if (url.protocol !== "http:" && url.protocol !== "https:" && url.protocol !== "data:") {
      throw new Error(`Unsupported URL protocol for ${data}. Only http, https, and data URLs are supported.`);
    }
    if (ALLOWED_DOMAINS.length > 0 && url.protocol !== "data:") {
      const host = url.hostname;
      if (!ALLOWED_DOMAINS.some((d) => host === d || host.endsWith(`.${d}`)))
        throw new Error(`Domain ${host} is not in the allowed domains list.`);
    }
    return url;
  } catch (error) {
    throw new ToolError(`Error processing file ${data}: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/**
 * The body of `url`, at most `MAX_BYTES` bytes, within `MAX_MILLIS` ms.
 * @throws ToolError when the body is larger (by `Content-Length` or as read) or missing, or the fetch fails or times out.
 */
async function fetchBounded(url: URL): Promise<Uint8Array> {
  const signal = AbortSignal.timeout(MAX_MILLIS);
  try {
    const response = await fetch(url, { signal });
    if (!response.body) throw new Error("No response body");
    const length = response.headers.get("content-length");
    if (length !== null && Number.parseInt(length, 10) > MAX_BYTES)
      throw new Error(`Content-Length for ${url} exceeds max of ${MAX_BYTES}: ${length}`);
    const chunks: Uint8Array[] = [];
    let total = 0;
    for await (const chunk of response.body) {
      total += chunk.length;
      if (total > MAX_BYTES) throw new Error(`Response from ${url} exceeds ${MAX_BYTES} bytes`);
      chunks.push(chunk);
    }
    return Buffer.concat(chunks);
  } catch (error) {
    if (signal.aborted) throw new ToolError(`Fetching ${url} took more than ${MAX_MILLIS} ms and was aborted.`);
    throw new ToolError(error instanceof Error ? error.message : String(error));
  }
}

export class GzipTool {
  constructor(private readonly sessions: SessionResources) {}

  /**
   * Compresses a single file using gzip compression. Depending upon the selected output type, returns either the compressed data as a gzipped resource or a resource link, allowing it to be downloaded in a subsequent request during the current session.
   * @param name Name of the output file
   * @param data URL or data URI of the file content to compress
   * @param outputType How the resulting gzipped file should be returned. 'resourceLink' returns a link to a resource that can be read later, 'resource' returns a full resource object.
   */
  @tool({
    name: "gzip-file-as-resource",
    task: "forbidden",
    title: "GZip File as Resource Tool",
    readOnly: false,
    destructive: false,
    idempotent: true,
    openWorld: true,
  })
  async gzipFileAsResource(
    name = "README.md.gz",
    data: string &
      Format<"uri"> = "https://raw.githubusercontent.com/modelcontextprotocol/servers/refs/heads/main/README.md",
    outputType: "resourceLink" | "resource" = "resourceLink",
  ): Promise<ContentBlock[]> {
    const body = await fetchBounded(checkedUrl(data));
    const uri = `demo://resource/session/${name}`;
    const mimeType = "application/gzip";
    const blob = gzipSync(body).toString("base64");
    this.sessions.store(name, { uri, mimeType, blob });
    if (outputType === "resource") return [{ type: "resource", resource: { uri, mimeType, blob } }];
    return [{ type: "resource_link", uri, name, mimeType }];
  }
}
