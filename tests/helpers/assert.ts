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
export const assertRejects = assertNode.rejects;
export const assertThrows = assertNode.throws;
