/**
 * The neutral interface between the type → model conversion and a type-extraction backend
 * (TypeScript 7.0 and 7.1 over IPC, the classic TS 5/6 API in process). Nothing here refers to a
 * TypeScript version: handles are opaque, everything else is plain data. The facts follow the
 * mapping contract of docs/mapping.md (§3 defaults, §4 types).
 */
import type { DefaultValue, SourceLocation } from "@typed-mcp/model";
import type { ConsultSeed } from "../declarations.js";

/** An opaque type handle owned by the backend. */
export interface TypeRef {
  readonly __typeRef: never;
}
/** An opaque handle to a type annotation (a syntax node), used for source-order facts. */
export interface TypeNodeRef {
  readonly __typeNodeRef: never;
}

/**
 * A raw JSDoc block as a backend hands it over (the source from the JSDoc node's `pos` to its
 * `end`, trivia included: `jsdoc.ts` reads it) and the location of its first character, so a
 * problem with one tag is reported at the tag (spec §3: a `@default` on an input is OMCG0007 at
 * the tag).
 */
export interface RawDoc {
  text: string;
  at: SourceLocation;
}

/** What kind of type a handle is (spec §4 dispatch). */
export type TypeShape =
  | {
      kind:
        | "string"
        | "number"
        | "bigint"
        | "boolean"
        | "null"
        | "undefined"
        | "void"
        | "any"
        | "unknown"
        | "never"
        | "symbol"
        | "nonPrimitive";
    }
  | { kind: "stringLiteral"; value: string }
  | { kind: "numberLiteral"; value: number }
  | { kind: "booleanLiteral"; value: boolean }
  | { kind: "bigintLiteral" }
  /** A member of an `enum` (string or numeric). `enumId` identifies the enum. */
  | { kind: "enumLiteral"; value: string | number; enumId: string }
  | { kind: "union"; members: TypeRef[] }
  | { kind: "intersection"; members: TypeRef[] }
  | { kind: "object" }
  | { kind: "typeParameter" }
  | { kind: "other" };

/** The declaration a named type points to. */
export interface NamedInfo {
  name: string;
  /** Declared in a default library file or in `@types/*` / `node_modules` `.d.ts` (a built-in such as `Date`). */
  builtin: boolean;
  /** Declared by the `typed-mcp` package (e.g. `RequestContext`, `CallToolResult`). */
  typedMcp: boolean;
  isClass: boolean;
}

/** Facts about an object type. */
export interface ObjectShape {
  /** Element type of `T[]`, `readonly T[]`, `Array<T>`, `ReadonlyArray<T>`. */
  arrayElement?: TypeRef;
  tuple: boolean;
  /** The symbol the object type is named after (interface, class, `Map`, …), when it has one. */
  named?: NamedInfo;
  /** Type arguments of a generic reference (`Set<T>` → `[T]`); a tuple's element types. */
  typeArguments: TypeRef[];
  /** Has call or construct signatures (a function type, a class constructor). */
  callable: boolean;
  /** Value type of a `string` index signature. */
  stringIndex?: TypeRef;
  /** Has a `number` or symbol index signature. */
  otherIndex: boolean;
}

/** A property of an object type, in listing order (base first, then declaration order). */
export interface PropertyInfo {
  name: string;
  type: TypeRef;
  /** Declared with `?`. */
  optional: boolean;
  /** Raw JSDoc attached to the declaration (TypeScript's attachment rule). */
  doc?: RawDoc;
  typeNode?: TypeNodeRef;
  declaredAt?: SourceLocation;
  kind: "field" | "getter" | "getterSetter" | "setter" | "method" | "other";
  visibility: "public" | "private" | "protected" | "hash";
  isStatic: boolean;
  /** A class field with an initializer. */
  hasInitializer: boolean;
  /** A constructor parameter property. */
  parameterProperty: boolean;
}

/** An `enum`, members in declaration order. */
export interface EnumInfo {
  name: string;
  members: { name: string; value: string | number }[];
}

/**
 * A default value expression of a parameter or binding element (spec §3); `loc` is where the
 * expression starts (OMCG0007 for a default outside its own constraints is reported there).
 */
export type DefaultInfo =
  /** Folded under §1's rule: a string, number or boolean, or an array of these (no `null` inside). */
  (
    | { kind: "const"; value: DefaultValue }
    | { kind: "null" }
    /** An identifier or property access: decided by its type (a `const` literal, an enum member). */
    | { kind: "type"; type: TypeRef }
    | { kind: "other" }
  ) & { loc?: SourceLocation };

/** One element of an object destructuring parameter. */
export interface BindingInfo {
  /** The property key, or `undefined` for a computed key or a `...rest` element. */
  key: string | undefined;
  rest: boolean;
  default?: DefaultInfo;
  loc: SourceLocation;
}

/** One parameter of a tool function, in declaration order (a `this` parameter is left out). */
export interface ParamInfo {
  /** The identifier name, or `undefined` for a binding pattern. */
  name: string | undefined;
  pattern?: "object" | "array";
  bindings?: BindingInfo[];
  rest: boolean;
  optional: boolean;
  type: TypeRef;
  typeNode?: TypeNodeRef;
  /** Raw inline JSDoc of the parameter (`(/** @minimum 1 *\/ qty: Int)`). */
  doc?: RawDoc;
  loc: SourceLocation;
  default?: DefaultInfo;
}

/** A tool function's signature. */
export interface SignatureInfo {
  params: ParamInfo[];
  returnType: TypeRef;
  returnTypeNode?: TypeNodeRef;
  returnLoc: SourceLocation;
  /** Raw JSDoc of the declaration. */
  doc?: RawDoc;
  hasTypeParameters: boolean;
}

/** A class's constructor, for reading a class instance (spec §4 "Objects"). */
export interface ConstructorInfo {
  /**
   * Module specifier resolvable from the tool's file; `""` when the class is declared in the tool's
   * own module; `undefined` when it lives elsewhere and is not exported.
   */
  from: string | undefined;
  /** The export name (`"default"` for a default export), or the local name for a class in the tool's module. */
  exportName: string | undefined;
  /** Raw JSDoc of the constructor (its `@param` tags describe parameter properties). */
  doc?: RawDoc;
  params: { name: string | undefined; optional: boolean; hasDefault: boolean; rest: boolean }[];
}

/** Type queries the conversion needs. Implementations cache within one snapshot. */
export interface TypeHost {
  /** A number identifying the type within the session (recursion detection). */
  typeId(t: TypeRef): number;
  shape(t: TypeRef): TypeShape;
  /** The type alias the type was written as (`CallToolResult`, `Int`), if any. */
  aliasNamed(t: TypeRef): NamedInfo | undefined;
  /** The declaration a type annotation that is a plain reference (`CallToolResult`) names, through imports. */
  referenceNamed(node: TypeNodeRef | undefined): NamedInfo | undefined;
  /**
   * When the annotation `node` is a reference whose name TypeScript cannot resolve (a misspelt or
   * unimported name, a global missing from `lib`/`types`), directly or through type aliases: the
   * reference as written (`Dtae`) and the checker's own error message there ("Cannot find name
   * 'Dtae'."); else `undefined`.
   */
  unresolvedReason(node: TypeNodeRef | undefined): { written: string; message: string } | undefined;
  /** Raw JSDoc of the declaration of a named object type (interface, class, alias), for `@naming`. */
  typeDoc(t: TypeRef): RawDoc | undefined;
  /** The type as written by the checker (`Item[]`, `"a" | "b"`), for messages. */
  text(t: TypeRef): string;
  /** Where the type is declared (`undefined` for anonymous / primitive types). */
  declaredAt(t: TypeRef): SourceLocation | undefined;
  object(t: TypeRef): ObjectShape;
  properties(t: TypeRef): PropertyInfo[];
  /** The enum a literal (of `shape` kind `enumLiteral`) belongs to. */
  enumOf(t: TypeRef): EnumInfo | undefined;
  /**
   * The literal values of a union as written in the source: from `node` if given, else from the
   * type's alias declaration. `undefined` when the source does not write them out.
   */
  literalOrder(t: TypeRef, node: TypeNodeRef | undefined): (string | number)[] | undefined;
  /**
   * The members of a union as written in the source (spec §4a "Order"): from `node` if given,
   * else from the type's alias declaration, through parentheses, nested unions and references
   * to union aliases. `slot` numbers the members as written; a member written as a type that is
   * itself a union (`boolean`, an enum, a computed type) gives each of its members, without a
   * node, one shared slot. `undefined` when the source does not write the union out.
   */
  unionOrder(
    t: TypeRef,
    node: TypeNodeRef | undefined,
  ): { type: TypeRef; node?: TypeNodeRef; slot: number }[] | undefined;
  /**
   * The type node written in the declaration of the type's alias (`Record<"b" | "a", T>` for
   * `type Opts = Record<"b" | "a", T>`), following plain references to further type aliases
   * (`type A = Opts`). `undefined` when the type has no type alias declaration.
   */
  aliasTypeNode(t: TypeRef): TypeNodeRef | undefined;
  /**
   * A child of a type annotation: `"element"` of `T[]` / `Array<T>` / `Set<T>`, `"typeArg"` n,
   * `"nonNull"` (the one non-null member of `T | null | undefined`). `undefined` if absent.
   */
  childNode(node: TypeNodeRef | undefined, which: "element" | "nonNull" | number): TypeNodeRef | undefined;
  /**
   * When `t` is a typed-mcp phantom tag object (`Minimum<1>`, the `Int` brand), its tags
   * (`{ name: "minimum", value: 1 }`); else `undefined`.
   */
  tags(t: TypeRef): { name: string; value: string | number | boolean | undefined }[] | undefined;
  /** For a class type: its constructor (spec §4 classes). */
  classConstructor(t: TypeRef, fromFile: string): ConstructorInfo | undefined;
  /**
   * Marks a file as consulted (watch files): the declaration node spanning `span` (UTF-16
   * offsets), the declarations of the symbol `name`, or (without `what`) the whole file.
   */
  consult(file: string, what?: { span: [number, number] } | { name: string }): void;
}

/** Resolution of a quick-path call: whether the receiver is typed-mcp's `McpServer`, and the function. */
export interface QuickResolution {
  isServer: boolean;
  signature?: SignatureInfo;
  /** Why the function argument could not be read (reported as OMCG0004 when `isServer`). */
  problem?: string;
}

/** A compile-time constant (spec §1): what an option value or a default folds to. */
export type ConstantValue = string | number | boolean | null | ConstantValue[];

/** A folded constant, or why the expression is not one (naming it, in backquotes). */
export type FoldResult = { value: ConstantValue } | { error: string };

/** The per-module view a backend hands to the conversion. */
export interface ModuleSession {
  host: TypeHost;
  /** `undefined` when the project is usable; else a message for OMCG0000. */
  configProblem?: string;
  /** The signature of the method whose name spans `[start, end)` in the module. */
  methodSignature(nameSpan: [number, number]): SignatureInfo | undefined;
  /**
   * Optional: asks ahead, in one batch, what the signatures of these methods will need (their
   * parameters' symbols and types), before {@link methodSignature} reads them one by one.
   */
  prefetchMethods?(nameSpans: [number, number][]): void;
  /** Resolves quick-path candidates (one batched query for all receivers). */
  quickSites(sites: { receiver: [number, number]; fn: { kind: string; span: [number, number] } }[]): QuickResolution[];
  /**
   * Folds the option value or default spanning `[start, end)` of the module to its compile-time
   * constant (spec §1). "Fold" is the compiler term (constant folding): evaluating an expression
   * of constants at build time.
   */
  foldConstant(span: [number, number]): FoldResult;
  /** Files whose declarations were consulted so far (absolute, forward slashes). */
  consulted(): string[];
  /** Per consulted file, which of its declarations were consulted (spans, names, or the whole file). */
  consultedDeclarations(): Map<string, ConsultSeed>;
}

/** Counters for measurements (docs/extraction.md). */
export interface BackendStats {
  /** IPC requests sent to the sidecar since it started (0 for the in-process classic backend). */
  roundTrips: number;
  /** Milliseconds spent in the cold start (spawn / program creation + first project load), once started. */
  coldStartMs: number;
  /** Which backend runs (`"7.0"`, `"6"`); `undefined` before the first module was checked. */
  backend?: string;
  /** Version of the TypeScript package the backend runs on. */
  typescriptVersion?: string;
}

/**
 * A type-extraction backend: TypeScript 7.0's / 7.1's IPC API (`ts7.ts`, `ts71.ts`) or the
 * classic TS 5.x/6.x compiler API (`classic.ts`), all over `project.ts`'s `BackendBase`.
 * `index.ts` only talks to this interface.
 */
export interface Backend {
  /**
   * Opens (or refreshes) the project of `file` (absolute, forward slashes) with `code` as the
   * module's text (overlaid over the disk) and returns the module's session. Throws only when
   * the checker itself fails (reported as OMCG0000 by the caller).
   */
  session(file: string, code: string): ModuleSession;
  /** Incremented whenever the program may have changed: models memoised under an older value are stale. */
  readonly generation: number;
  /** A file changed (or was deleted) on disk; applied with the next `session`. */
  invalidate(file: string, deleted?: boolean): void;
  /** Measurements so far. */
  stats(): BackendStats;
  /** Releases the checker (ends a sidecar). Idempotent. */
  close(): void;
}
