/**
 * The form `trigger-elicitation-request` asks for (MCP elicitation, form mode): one field of
 * each kind the spec's restricted JSON Schema allows — strings with and without `format`,
 * boolean, integer and number ranges, single and multiple select enums, titled and untitled, and
 * the legacy `enumNames` form — with the same titles, descriptions and defaults as the original.
 */
import type { ElicitRequestFormParams } from "typed-mcp";

const titled = (pairs: Array<[string, string]>) => pairs.map(([value, title]) => ({ const: value, title }));

/** The `requestedSchema` (only `name` is required). */
export const ELICITATION_FORM = {
  type: "object",
  properties: {
    name: { title: "String", type: "string", description: "Your full, legal name" },
    check: { title: "Boolean", type: "boolean", description: "Agree to the terms and conditions" },
    firstLine: {
      title: "String with default",
      type: "string",
      description: "Favorite first line of a story",
      default: "It was a dark and stormy night.",
    },
    email: {
      title: "String with email format",
      type: "string",
      format: "email",
      description: "Your email address (will be verified, and never shared with anyone else)",
    },
    homepage: {
      type: "string",
      format: "uri",
      title: "String with uri format",
      description: "Portfolio / personal website",
    },
    birthdate: { title: "String with date format", type: "string", format: "date", description: "Your date of birth" },
    integer: {
      title: "Integer",
      type: "integer",
      description: "Your favorite integer (do not give us your phone number, pin, or other sensitive info)",
      minimum: 1,
      maximum: 100,
      default: 42,
    },
    number: {
      title: "Number in range 1-1000",
      type: "number",
      description: "Favorite number (there are no wrong answers)",
      minimum: 0,
      maximum: 1000,
      default: 3.14,
    },
    untitledSingleSelectEnum: {
      type: "string",
      title: "Untitled Single Select Enum",
      description: "Choose your favorite friend",
      enum: ["Monica", "Rachel", "Joey", "Chandler", "Ross", "Phoebe"],
      default: "Monica",
    },
    untitledMultipleSelectEnum: {
      type: "array",
      title: "Untitled Multiple Select Enum",
      description: "Choose your favorite instruments",
      minItems: 1,
      maxItems: 3,
      items: { type: "string", enum: ["Guitar", "Piano", "Violin", "Drums", "Bass"] },
      default: ["Guitar"],
    },
    titledSingleSelectEnum: {
      type: "string",
      title: "Titled Single Select Enum",
      description: "Choose your favorite hero",
      oneOf: titled([
        ["hero-1", "Superman"],
        ["hero-2", "Green Lantern"],
        ["hero-3", "Wonder Woman"],
      ]),
      default: "hero-1",
    },
    titledMultipleSelectEnum: {
      type: "array",
      title: "Titled Multiple Select Enum",
      description: "Choose your favorite types of fish",
      minItems: 1,
      maxItems: 3,
      items: {
        anyOf: titled([
          ["fish-1", "Tuna"],
          ["fish-2", "Salmon"],
          ["fish-3", "Trout"],
        ]),
      },
      default: ["fish-1"],
    },
    legacyTitledEnum: {
      type: "string",
      title: "Legacy Titled Single Select Enum",
      description: "Choose your favorite type of pet",
      enum: ["pet-1", "pet-2", "pet-3", "pet-4", "pet-5"],
      enumNames: ["Cats", "Dogs", "Birds", "Fish", "Reptiles"],
      default: "pet-1",
    },
  },
  required: ["name"],
} as unknown as ElicitRequestFormParams["requestedSchema"];
