// A real authorization server for the auth tests: oidc-provider (a certified OpenID provider) on
// 127.0.0.1, as scripts/oidc-provider.mjs starts it (the one a developer runs to try `auth`), and
// `authorize`, which drives its development login and consent pages headlessly.
import makeFetchCookie from "fetch-cookie";
import { APP } from "../../scripts/oidc-provider.mjs";

export {
  APP,
  M2M,
  READER,
  RESOURCE_SERVER,
  startAuthorizationServer,
} from "../../scripts/oidc-provider.mjs";

/** A running authorization server (scripts/oidc-provider.mjs). */
export interface AuthorizationServer {
  /** The issuer identifier, `http://127.0.0.1:<port>`. */
  issuer: string;
  port: number;
  stop(): Promise<void>;
}

/**
 * Drives the development login and consent pages of oidc-provider headlessly, from the
 * authorization URL the MCP client's OAuth support produced to the `code` sent to the redirect
 * URI: the callback's query (the user agent's part of RFC 6749 §4.1, with cookies kept by fetch-cookie).
 */
export async function authorize(authorizationUrl: URL, login = "alice"): Promise<URLSearchParams> {
  const browser = makeFetchCookie(fetch);
  let url = authorizationUrl.href;
  for (let step = 0; step < 10; step++) {
    const response = await browser(url, { redirect: "manual" });
    const location = response.headers.get("location");
    if (location !== null) {
      const next = new URL(location, url);
      if (next.href.startsWith(APP.redirectUri)) {
        if (!next.searchParams.has("code")) throw new Error(`authorization failed: ${next.search}`);
        return next.searchParams;
      }
      url = next.href;
      continue;
    }
    const page = await response.text();
    const prompt = /name="prompt" value="(\w+)"/.exec(page)?.[1];
    if (response.status !== 200 || prompt === undefined)
      throw new Error(`unexpected page ${response.status} at ${url}: ${page.slice(0, 300)}`);
    const form = new URLSearchParams(prompt === "login" ? { prompt, login, password: "any" } : { prompt });
    const submitted = await browser(url, { method: "POST", body: form, redirect: "manual" });
    const after = submitted.headers.get("location");
    if (after === null)
      throw new Error(`the ${prompt} form did not redirect: ${submitted.status} ${await submitted.text()}`);
    url = new URL(after, url).href;
  }
  throw new Error("too many redirects");
}
