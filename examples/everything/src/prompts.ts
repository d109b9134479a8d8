/**
 * The original's prompts (server-everything `prompts/`): `simple-prompt`, `args-prompt`,
 * `completable-prompt` (its `name` completion depends on the chosen `department`: a `@complete`
 * hook) and `resource-prompt` (an embedded dynamic resource). `department` and `resourceType`
 * are literal unions, completed from their values by typed-mcp itself.
 */
import { complete, prompt, type Int, type Minimum, type PromptMessage } from "typed-mcp";
import { dynamicContents, type ResourceType } from "./dynamic-resources.js";

/** The departments `completable-prompt` offers, in the original's order. */
export type Department = "Engineering" | "Sales" | "Marketing" | "Support";

/** The team members `completable-prompt` offers per department (its `name` completion). */
const TEAM: Record<Department, readonly string[]> = {
  Engineering: ["Alice", "Bob", "Charlie"],
  Sales: ["David", "Eve", "Frank"],
  Marketing: ["Grace", "Henry", "Iris"],
  Support: ["John", "Kim", "Lee"],
};

/** `[value]` when `value` is a positive integer (`Number(value)`, as the original's completer), else `[]`. */
export function positiveInteger(value: string): string[] {
  const n = Number(value);
  return Number.isInteger(n) && n > 0 ? [value] : [];
}

export class Prompts {
  /** A prompt with no arguments */
  @prompt({ name: "simple-prompt", title: "Simple Prompt" })
  simple(): string {
    return "This is a simple prompt without arguments.";
  }

  /**
   * A prompt with two arguments, one required and one optional
   * @param city Name of the city
   */
  @prompt({ name: "args-prompt", title: "Arguments Prompt" })
  args(city: string, state?: string): string {
    return `What's weather in ${city}${state ? `, ${state}` : ""}?`;
  }

  /**
   * First argument choice narrows values for second argument.
   * @param department Choose the department.
   * @param name Choose a team member to lead the selected department.
   */
  @prompt({ name: "completable-prompt", title: "Team Management" })
  completable(department: Department, name: string): string {
    return `Please promote ${name} to the head of the ${department} team.`;
  }

  /**
   * Completes `completable-prompt`'s `name`: the members of the department already chosen.
   * @param value What the client typed of the name.
   * @param department The department argument as the client sent it, if it did.
   */
  @complete("completable", "name")
  teamMembers(value: string, department?: string): string[] {
    const team = department !== undefined && Object.hasOwn(TEAM, department) ? TEAM[department as Department] : [];
    return team.filter((n) => n.startsWith(value));
  }

  /**
   * Completes `resource-prompt`'s `resourceId`: the value itself when it is a positive integer
   * (`Number(value)`, as the original accepts).
   */
  @complete("resource", "resourceId")
  resourceIds(value: string): string[] {
    return positiveInteger(value);
  }

  /**
   * A prompt that includes an embedded resource reference
   * @param resourceType Type of resource to fetch
   * @param resourceId ID of the text resource to fetch
   */
  @prompt({ name: "resource-prompt", title: "Resource Prompt" })
  resource(resourceType: ResourceType, resourceId: Int & Minimum<1>): PromptMessage[] {
    return [
      {
        role: "user",
        content: {
          type: "text",
          text: `This prompt includes the ${resourceType} resource with id: ${resourceId}. Please analyze the following resource:`,
        },
      },
      { role: "user", content: { type: "resource", resource: dynamicContents(resourceType, resourceId) } },
    ];
  }
}
