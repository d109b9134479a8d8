// typia 12 `validateEquals` for the three reader payloads of `pnpm bench` (issue 12 row "reader vs
// typia validateEquals on valid input"): the types of scripts/bench/fixture/src/payloads.ts in
// typia's tag vocabulary. Compiled once by `tspc` (ts-patch on TypeScript 5.9), which runs typia's
// transform and writes straight-line validators to dist/. typia validates only: no clean copy, and
// a date-time stays a string (typia's `Format<"date-time">`), like ajv in the same bench.
import typia, { type tags } from "typia";

/** `flat(name: string, age: Int, score: number, active: boolean, nickname?: string)`. */
interface Flat {
  name: string;
  age: number & tags.Type<"int64">;
  score: number;
  active: boolean;
  nickname?: string;
}

interface Customer {
  name: string & tags.MinLength<1>;
  email: string;
}

interface LineItem {
  sku: string;
  quantity: number & tags.Type<"int64"> & tags.Minimum<1>;
  price: number;
}

interface Order {
  id: string;
  customer: Customer;
  items: LineItem[];
  note?: string;
}

/** `place_order(order: Order)`. */
interface PlaceOrder {
  order: Order;
}

/** `strings(code, email, homepage, at: Date, until: Date, label)`. */
interface Strings {
  code: string & tags.Pattern<"^[A-Z]{3}-[0-9]{4}$">;
  email: string & tags.Format<"email">;
  homepage: string & tags.Format<"uri">;
  at: string & tags.Format<"date-time">;
  until: string & tags.Format<"date-time">;
  label: string & tags.MinLength<1> & tags.MaxLength<40>;
}

/** The validators, by tool name: `(input: unknown) => IValidation<T>` (`success`, `data` or `errors`). */
export const validators = {
  flat: typia.createValidateEquals<Flat>(),
  place_order: typia.createValidateEquals<PlaceOrder>(),
  strings: typia.createValidateEquals<Strings>(),
};
