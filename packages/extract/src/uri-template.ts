/**
 * Build-time check of a resource URI template (spec §8, OMCG0011): the RFC 6570 template
 * syntax, narrowed to the expressions typed-mcp's runtime can match and bind to parameters.
 * Matching itself is done at run time by the MCP SDK's `UriTemplate` (see docs/resources.md);
 * this only decides, before the build succeeds, that the template is one it matches as meant.
 */

/** A parsed template: its variable names in order, or why it is refused. */
export type TemplateCheck = { ok: true; variables: string[] } | { ok: false; message: string };

// RFC 6570 §2.1 literals: any character except CTL, SP, DQUOTE, "'", "%" (unless pct-encoded),
// "<", ">", "\", "^", "`", "{", "|", "}".
// biome-ignore lint/suspicious/noControlCharactersInRegex: RFC 6570 refuses CTL characters, so the class names them
const LITERAL_BAD = /[\u0000-\u0020"'<>\\^`{|}\u007f]/;
// §2.3 varname: varchar *( ["."] varchar ), varchar = ALPHA / DIGIT / "_" / pct-encoded.
const VARNAME = /^(?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2})(?:\.?(?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2}))*$/;
const OPERATORS = "+#./;?&";
const RESERVED_OPERATORS = "=,!@|";

/** Whether `uri` contains a template expression (a `{`); such a string is listed as a template. */
export function isTemplate(uri: string): boolean {
  return uri.includes("{") || uri.includes("}");
}

/**
 * Checks a template. Accepted: literals and expressions `{name}`, `{+name}`, `{#name}`,
 * `{.name}`, `{/name}` with one variable each, and `{?a,b}` / `{&a,b}` with one or more; every
 * variable name must be a JavaScript identifier (it names a parameter) and appear once. Refused,
 * with a message: RFC 6570 syntax errors, the reserved operators `= , ! @ |`, the `;` operator,
 * prefix (`:n`) and explode (`*`) modifiers, and several variables in one non-query expression —
 * the SDK's matcher cannot bind those back to parameters.
 */
export function checkTemplate(template: string): TemplateCheck {
  const variables: string[] = [];
  let i = 0;
  while (i < template.length) {
    const c = template[i]!;
    if (c === "{") {
      const end = template.indexOf("}", i + 1);
      if (end < 0) return { ok: false, message: `an expression that starts at '{' (offset ${i}) is not closed` };
      const body = template.slice(i + 1, end);
      if (body.includes("{")) return { ok: false, message: `'{' inside the expression '{${body}}'` };
      if (body === "") return { ok: false, message: "an empty expression '{}'" };
      let op = "";
      let list = body;
      if (OPERATORS.includes(body[0]!)) {
        op = body[0]!;
        list = body.slice(1);
      } else if (RESERVED_OPERATORS.includes(body[0]!)) {
        return { ok: false, message: `the operator '${body[0]}' in '{${body}}' is reserved by RFC 6570` };
      }
      if (op === ";")
        return { ok: false, message: `the ';' operator in '{${body}}' is not supported; use '{?…}' for parameters` };
      const names = list.split(",");
      if (names.length > 1 && op !== "?" && op !== "&") {
        return {
          ok: false,
          message: `'{${body}}' has several variables; write one expression per variable (several are allowed only in '{?…}' and '{&…}')`,
        };
      }
      for (const spec of names) {
        const m = /^(.*?)(\*|:[1-9][0-9]{0,3})?$/.exec(spec)!;
        const name = m[1]!;
        if (!VARNAME.test(name))
          return { ok: false, message: `'${spec}' in '{${body}}' is not a valid RFC 6570 variable name` };
        if (m[2] !== undefined) {
          return {
            ok: false,
            message: `the modifier '${m[2]}' in '{${body}}' is not supported; a variable binds its whole value to a parameter`,
          };
        }
        if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name))
          return { ok: false, message: `the variable '${name}' cannot name a parameter; use letters, digits and '_'` };
        if (variables.includes(name)) return { ok: false, message: `the variable '${name}' appears twice` };
        variables.push(name);
      }
      i = end + 1;
      continue;
    }
    if (c === "}") return { ok: false, message: `a '}' at offset ${i} closes no expression` };
    if (c === "%") {
      if (!/^%[0-9A-Fa-f]{2}/.test(template.slice(i, i + 3)))
        return { ok: false, message: `'%' at offset ${i} does not start a percent-encoded octet` };
      i += 3;
      continue;
    }
    if (LITERAL_BAD.test(c))
      return {
        ok: false,
        message: `the character ${JSON.stringify(c)} at offset ${i} is not allowed in a URI template`,
      };
    i++;
  }
  if (!/^[A-Za-z][A-Za-z0-9+.-]*:/.test(template))
    return { ok: false, message: "it does not start with a URI scheme (`scheme:`)" };
  return { ok: true, variables };
}
