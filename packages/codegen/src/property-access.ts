/**
 * Property access and assignment as generated code: the identifier test, `obj.key` /
 * `obj["key"]`, object-literal keys, and assignments that keep `__proto__` an own data property
 * (a JSON key `__proto__` must never set a prototype). Used by the readers, the writers and the
 * shared units.
 *
 * @module
 */
import { helperCall, str } from "./emit.js";

const IDENT = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** Whether `s` is a JavaScript identifier (ASCII only), so it can follow a `.` or be a bare key. */
export function isIdentifier(s: string): boolean {
  return IDENT.test(s);
}

/** `obj.key`, or `obj["key"]` when `key` is not an identifier. */
export function member(obj: string, key: string): string {
  return isIdentifier(key) ? `${obj}.${key}` : `${obj}[${str(key)}]`;
}

/**
 * An object-literal key for `key`. `__proto__` is written as a computed key (`["__proto__"]`),
 * which creates an own data property instead of setting the prototype.
 */
export function literalKey(key: string): string {
  if (key === "__proto__") return `[${str(key)}]`;
  return isIdentifier(key) ? key : str(key);
}

/** Sets a statically known property on a fresh object: `__proto__` becomes an own data property. */
export function assignStatic(target: string, key: string, value: string): string {
  return key === "__proto__"
    ? `${helperCall("defineOwn", target, str(key), value)};`
    : `${member(target, key)} = ${value};`;
}

/** `target[key] = value` where `key` is a runtime string: `__proto__` becomes an own data property. */
export function assignDynamic(target: string, key: string, value: string): string {
  return `if (${key} === "__proto__") ${helperCall("defineOwn", target, key, value)}; else ${target}[${key}] = ${value};`;
}
