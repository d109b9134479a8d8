/**
 * The playground's MCP Apps view in a real browser (Debian's Chromium, driven by playwright-core).
 *
 * The test is the host: it builds the playground with Vite, drives it over stdio with the official
 * client (which advertises the MCP Apps extension), reads the view `ui://memory/graph` and calls
 * `read_graph` for real, then loads the HTML into a sandboxed iframe under the MCP Apps default CSP
 * and speaks the extension's postMessage protocol (stable 2026-01-26): answers `ui/initialize`,
 * waits for `ui/notifications/initialized`, sends `ui/notifications/tool-input` and
 * `ui/notifications/tool-result`. It then checks the drawn DOM against the graph it created.
 * A screenshot is left at <repo>/.tmp/typed-mcp-graph-view.png (inside the checkout, so two clones do not share it).
 */
import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, expect, it } from "vitest";
import { build } from "vite";
import { chromium, type Browser, type Frame, type Page } from "playwright-core";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";

const CHROMIUM = "/usr/bin/chromium";
const here = dirname(fileURLToPath(import.meta.url));
const playground = resolve(here, "../../playground");
const SCREENSHOT = resolve(here, "../../.tmp/typed-mcp-graph-view.png");

/** The MCP Apps host's restrictive default CSP for a view without `_meta.ui.csp` (extension spec, "Host Behavior"). */
const DEFAULT_CSP =
  "default-src 'none'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; media-src 'self' data:; connect-src 'none'";

const entities = [
  { name: "Alice", entityType: "person", observations: ["Likes tea", "Speaks Norwegian"] },
  { name: "Acme", entityType: "organization", observations: ["Makes anvils"] },
  { name: "Bob", entityType: "person", observations: [] as string[] },
];
const relations = [
  { from: "Alice", to: "Acme", relationType: "works_at" },
  { from: "Bob", to: "Alice", relationType: "knows" },
  { from: "Acme", to: "Bob", relationType: "employs" },
];

let work: string;
let client: Client;
let browser: Browser;
let page: Page;
let html: string;
let toolResult: Record<string, unknown>;
const consoleErrors: string[] = [];

beforeAll(async () => {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `Chromium is not installed at ${CHROMIUM}. Install it with: apt-get update && apt-get install -y chromium (npm run test:all does this).`,
    );
  }
  work = await mkdtemp(join(tmpdir(), "typed-mcp-apps-"));
  const outDir = join(work, "dist");
  await build({
    root: playground,
    configFile: join(playground, "vite.config.ts"),
    logLevel: "silent",
    build: { outDir },
  });

  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [join(outDir, "server.js")],
    env: { PATH: process.env.PATH ?? "", MEMORY_FILE_PATH: join(work, "memory.json") },
    stderr: "pipe",
  });
  client = new Client(
    { name: "apps-host", version: "1.0.0" },
    { capabilities: { extensions: { "io.modelcontextprotocol/ui": { mimeTypes: ["text/html;profile=mcp-app"] } } } },
  );
  await client.connect(transport);
  await client.callTool({ name: "create_entities", arguments: { entities } });
  await client.callTool({ name: "create_relations", arguments: { relations } });

  // As a host does: find the tool's view from its listing, read it, call the tool.
  const readGraph = (await client.listTools()).tools.find((t) => t.name === "read_graph");
  const resourceUri = (readGraph?._meta as { ui?: { resourceUri?: string } } | undefined)?.ui?.resourceUri;
  expect(resourceUri).toBe("ui://memory/graph");
  const view = (await client.readResource({ uri: resourceUri! })).contents[0] as { mimeType: string; text: string };
  expect(view.mimeType).toBe("text/html;profile=mcp-app");
  html = view.text;
  toolResult = (await client.callTool({ name: "read_graph", arguments: {} })) as Record<string, unknown>;
  expect(toolResult.structuredContent).toEqual({ entities, relations });

  browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--no-first-run",
    ],
  });
  page = await browser.newPage({ viewport: { width: 900, height: 700 } });
  page.on("console", (m) => {
    if (m.type() === "error") consoleErrors.push(m.text());
  });
  page.on("pageerror", (e) => consoleErrors.push(String(e)));
  // Two origins, as the extension asks of web hosts; nothing reaches the network.
  await page.route("https://view.test/**", (route) =>
    route.fulfill({
      status: 200,
      contentType: "text/html; charset=utf-8",
      headers: { "content-security-policy": DEFAULT_CSP },
      body: html,
    }),
  );
  await page.route("https://host.test/**", (route) =>
    route.fulfill({ status: 200, contentType: "text/html; charset=utf-8", body: HOST_PAGE }),
  );
  await page.route(
    (url) => !/^https:\/\/(host|view)\.test\//.test(url.href),
    (route) => route.abort(),
  );
  await page.goto("https://host.test/");
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await client?.close();
  if (work) await rm(work, { recursive: true, force: true });
});

/** The host page: one sandboxed iframe for the view, a log of what the view sent, and `hostSend`. */
const HOST_PAGE = `<!doctype html><html><head><title>host</title>
<style>body{margin:0;background:#e9edf1}iframe{border:1px solid #aab;width:860px;height:600px;margin:12px;background:#fff}</style></head>
<body><iframe id="view" sandbox="allow-scripts" src="https://view.test/graph"></iframe>
<script>
  window.fromView = [];
  const frame = document.getElementById("view");
  window.hostSend = (message) => frame.contentWindow.postMessage(message, "*");
  window.addEventListener("message", (event) => {
    if (event.source !== frame.contentWindow) return;
    const m = event.data;
    window.fromView.push(m);
    if (m.method === "ui/initialize") {
      hostSend({ jsonrpc: "2.0", id: m.id, result: {
        protocolVersion: "2026-01-26",
        hostCapabilities: {},
        hostInfo: { name: "vitest-host", version: "1.0.0" },
        hostContext: { theme: "light", displayMode: "inline", containerDimensions: { width: 860, maxHeight: 600 } },
      } });
    }
    if (m.method === "ui/notifications/size-changed" && m.params && m.params.height > 0) frame.style.height = m.params.height + "px";
  });
</script></body></html>`;

type Message = { jsonrpc: string; id?: number; method?: string; params?: Record<string, unknown> };
const fromView = () => page.evaluate(() => (window as unknown as { fromView: Message[] }).fromView);
const hostSend = (message: unknown) =>
  page.evaluate((m) => (window as unknown as { hostSend(m: unknown): void }).hostSend(m), message);

function viewFrame(): Frame {
  const frame = page.frames().find((f) => f.url().startsWith("https://view.test/"));
  if (!frame) throw new Error("the view's iframe is not loaded");
  return frame;
}

it("starts the MCP Apps handshake: ui/initialize, then ui/notifications/initialized after the host's answer", async () => {
  await expect
    .poll(async () => (await fromView()).some((m) => m.method === "ui/notifications/initialized"), { timeout: 20_000 })
    .toBe(true);
  const messages = await fromView();
  const init = messages.find((m) => m.method === "ui/initialize")!;
  expect(init.jsonrpc).toBe("2.0");
  expect(typeof init.id).toBe("number");
  expect(init.params).toMatchObject({
    protocolVersion: "2026-01-26",
    appInfo: { name: expect.any(String), version: expect.any(String) },
    appCapabilities: {},
  });
  expect(messages.findIndex((m) => m.method === "ui/initialize")).toBeLessThan(
    messages.findIndex((m) => m.method === "ui/notifications/initialized"),
  );
  // Nothing is drawn before the tool result arrives.
  expect(await viewFrame().locator(".entity").count()).toBe(0);
  expect(await viewFrame().locator("#status").textContent()).toBe("Waiting for the graph…");
});

it("draws every entity as a box with its type and observations, and every relation as a labelled arrow", async () => {
  await hostSend({ jsonrpc: "2.0", method: "ui/notifications/tool-input", params: { arguments: {} } });
  await hostSend({ jsonrpc: "2.0", method: "ui/notifications/tool-result", params: toolResult });
  const frame = viewFrame();
  await frame.locator(".entity").first().waitFor({ timeout: 20_000 });

  expect(await frame.locator(".entity").count()).toBe(entities.length);
  for (const e of entities) {
    const box = frame.locator(`.entity[data-name="${e.name}"]`);
    expect(await box.locator(".name").textContent()).toBe(e.name);
    expect(await box.locator(".type").textContent()).toBe(e.entityType);
    const observations = await box.locator(".obs").allTextContents();
    expect(observations).toEqual(
      e.observations.length > 0 ? e.observations.map((o) => `• ${o}`) : ["(no observations)"],
    );
    expect(await box.isVisible()).toBe(true);
  }
  expect(await frame.locator("#summary").textContent()).toBe("3 entities · 3 relations");

  expect(await frame.locator(".relation").count()).toBe(relations.length);
  for (const r of relations) {
    const edge = frame.locator(`.relation[data-from="${r.from}"][data-to="${r.to}"]`);
    expect(await edge.locator("text").textContent()).toBe(r.relationType);
    // The arrow runs from the edge of the `from` box to the edge of the `to` box.
    const [start, end, fromBox, toBox] = await edge.evaluate(
      (g, names) => {
        const path = g.querySelector("path") as SVGPathElement;
        const p = path.getPointAtLength(0);
        const q = path.getPointAtLength(path.getTotalLength());
        const rect = (name: string) => {
          const node = document.querySelector(`.entity[data-name="${name}"]`) as SVGGElement;
          const b = node.getBBox();
          const m = node.transform.baseVal.consolidate()!.matrix;
          return { x: b.x + m.e, y: b.y + m.f, w: b.width, h: b.height };
        };
        return [{ x: p.x, y: p.y }, { x: q.x, y: q.y }, rect(names[0]), rect(names[1])];
      },
      [r.from, r.to],
    );
    const onBorder = (pt: { x: number; y: number }, b: { x: number; y: number; w: number; h: number }) =>
      pt.x >= b.x - 1 &&
      pt.x <= b.x + b.w + 1 &&
      pt.y >= b.y - 1 &&
      pt.y <= b.y + b.h + 1 &&
      Math.min(Math.abs(pt.x - b.x), Math.abs(pt.x - b.x - b.w), Math.abs(pt.y - b.y), Math.abs(pt.y - b.y - b.h)) <
        1.5;
    expect(onBorder(start, fromBox), `${r.from} → ${r.to} starts on ${r.from}`).toBe(true);
    expect(onBorder(end, toBox), `${r.from} → ${r.to} ends on ${r.to}`).toBe(true);
  }

  // No two boxes overlap.
  const rects = await frame
    .locator(".entity")
    .evaluateAll((nodes) => nodes.map((n) => n.getBoundingClientRect().toJSON() as DOMRect));
  for (let i = 0; i < rects.length; i++) {
    for (let j = i + 1; j < rects.length; j++) {
      const a = rects[i]!,
        b = rects[j]!;
      expect(
        a.right <= b.left || b.right <= a.left || a.bottom <= b.top || b.bottom <= a.top,
        `boxes ${i} and ${j} overlap`,
      ).toBe(true);
    }
  }

  // The view tells the host its size after drawing.
  const sizes = (await fromView()).filter((m) => m.method === "ui/notifications/size-changed");
  expect(sizes.length).toBeGreaterThan(0);
  expect(sizes.at(-1)!.params).toMatchObject({ width: expect.any(Number), height: expect.any(Number) });
  expect((sizes.at(-1)!.params as { height: number }).height).toBeGreaterThan(200);

  await page.screenshot({ path: SCREENSHOT, fullPage: true });
  // The view ran under the default CSP without a violation or an exception.
  expect(consoleErrors).toEqual([]);
});

it("answers ui/resource-teardown and ping, and shows a failed tool's text", async () => {
  await hostSend({ jsonrpc: "2.0", id: 41, method: "ping" });
  await hostSend({ jsonrpc: "2.0", id: 42, method: "ui/resource-teardown", params: { reason: "test" } });
  await expect.poll(async () => (await fromView()).filter((m) => m.id === 41 || m.id === 42).length).toBe(2);
  expect((await fromView()).filter((m) => m.id === 41 || m.id === 42)).toEqual([
    { jsonrpc: "2.0", id: 41, result: {} },
    { jsonrpc: "2.0", id: 42, result: {} },
  ]);

  await hostSend({
    jsonrpc: "2.0",
    method: "ui/notifications/tool-result",
    params: { content: [{ type: "text", text: "The tool failed." }], isError: true },
  });
  const frame = viewFrame();
  await expect.poll(() => frame.locator("#status").textContent()).toBe("The tool failed.");
  expect(await frame.locator(".entity").count()).toBe(0);
});
