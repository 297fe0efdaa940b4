/** Familiar assertion names over node:assert/strict (no jsr: @std/assert here). */
import assertNode from "node:assert/strict";

export function assert(value: unknown, message?: string): asserts value {
  assertNode.ok(value, message as string);
}
export function assertEquals<T>(actual: unknown, expected: T, message?: string): asserts actual is T {
  assertNode.deepStrictEqual(actual, expected, message as string);
}
export function assertNotEquals(actual: unknown, expected: unknown, message?: string): void {
  assertNode.notDeepStrictEqual(actual, expected, message as string);
}
export function assertMatch(actual: string, re: RegExp, message?: string): void {
  assertNode.match(actual, re, message as string);
}
/** Numbers equal up to a relative difference of `epsilon` (computed floats in another order). */
export function assertAlmostEquals(actual: number, expected: number, epsilon = 1e-9, message?: string): void {
  const tolerance = epsilon * Math.max(1, Math.abs(expected));
  assertNode.ok(Math.abs(actual - expected) <= tolerance, message ?? `${actual} is not about ${expected}`);
}
export const assertRejects = assertNode.rejects;
export const assertThrows = assertNode.throws;
