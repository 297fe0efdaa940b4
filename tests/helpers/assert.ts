/** Familiar assertion names over node:assert/strict (no jsr: @std/assert here). */
import assertNode from "node:assert/strict";

export function assert(value: unknown, message?: string): asserts value {
  assertNode.ok(value, message);
}
export const assertEquals: <T>(actual: unknown, expected: T, message?: string) => asserts actual is T =
  assertNode.deepStrictEqual;
export const assertNotEquals = assertNode.notDeepStrictEqual;
export const assertMatch = (actual: string, re: RegExp, message?: string) =>
  assertNode.match(actual, re, message);
export const assertRejects = assertNode.rejects;
