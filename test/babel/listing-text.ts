/**
 * The schema text a property has in a module's generated code: written inline after its name
 * (`"limit": {…}`), or — a leaf schema of 40 characters or more in shared mode (docs/codegen.md,
 * packages/codegen/src/shared.ts `listingRef`) — in the schema unit it refers to
 * (`"limit": __tmcp_u_…` and `const __tmcp_u_… = {…};`). `undefined` when neither is there.
 */
export function propertySchemaText(code: string, property: string): string | undefined {
  const name = JSON.stringify(property);
  const inline = code.match(new RegExp(`${name}:\\s*(\\{[^{}]*\\})`));
  if (inline) return inline[1];
  const ref = code.match(new RegExp(`${name}:\\s*(__tmcp_u_\\w+)`));
  if (!ref) return undefined;
  return code.match(new RegExp(`const ${ref[1]} = (\\{[^{}]*\\});`))?.[1];
}
