/**
 * Which fields of a form are on screen, and how: each kit field registers its name while it is
 * mounted (disabled or not). The form uses it twice: to tell the errors no field shows (a refused
 * submit is never silent), and to leave out of validation the fields the user cannot act on, those
 * hidden (a field that was on screen and is not now, say a Speed time whose Speeder was switched off)
 * or only shown disabled. Such a field's value is still sent when it is valid; an invalid one is
 * left out of the submit instead of holding it back for a reason the user cannot see or fix.
 */
import type { FieldValues, Resolver } from "react-hook-form";
import { get } from "react-hook-form";

export class FieldRegistry {
  readonly #mounted = new Map<string, number>();
  readonly #enabled = new Map<string, number>();
  readonly #seen = new Set<string>();

  add(name: string, disabled = false) {
    this.#seen.add(name);
    bump(this.#mounted, name, 1);
    if (!disabled) bump(this.#enabled, name, 1);
  }

  remove(name: string, disabled = false) {
    bump(this.#mounted, name, -1);
    if (!disabled) bump(this.#enabled, name, -1);
  }

  /** Some mounted field shows this path's message under itself. */
  has(name: string): boolean {
    return this.#mounted.has(name);
  }

  /** Fields the user cannot act on now: on screen before and hidden now, or shown only disabled. */
  offFields(): string[] {
    return [...this.#seen].filter((name) => !this.#enabled.has(name));
  }
}

function bump(counts: Map<string, number>, name: string, by: number) {
  const n = (counts.get(name) ?? 0) + by;
  if (n > 0) counts.set(name, n);
  else counts.delete(name);
}

/** A copy of `values` without the value at each dotted path (objects along a path are copied). */
export function withoutPaths<T>(values: T, paths: string[]): T {
  let out = values;
  for (const path of paths) out = unset(out, path.split("."));
  return out;
}

function unset<T>(value: T, keys: string[]): T {
  if (!value || typeof value !== "object" || !keys.length) return value;
  const [key, ...rest] = keys;
  if (!(key in value)) return value;
  const copy = (Array.isArray(value) ? [...value] : { ...value }) as Record<string, unknown>;
  if (rest.length) copy[key] = unset(copy[key], rest);
  else if (Array.isArray(copy)) copy[Number(key)] = undefined;
  else delete copy[key];
  return copy as T;
}

/**
 * The resolver of a form, with the fields that are off (see FieldRegistry.offFields) not holding
 * a submit back: when one of them has an error, the values are checked again without it.
 */
export function skippingOffFields<T extends FieldValues, C, O>(
  resolver: Resolver<T, C, O>,
  registry: Pick<FieldRegistry, "offFields">,
): Resolver<T, C, O> {
  return async (values, context, options) => {
    const first = await resolver(values, context, options);
    const off = registry.offFields().filter((name) => get(first.errors, name) !== undefined);
    if (!off.length) return first;
    return await resolver(withoutPaths(values, off), context, options);
  };
}
