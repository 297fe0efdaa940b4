/** What no text field of the API holds, shared by the schemas, the list contract and the registrar. */

/** C0 controls (NUL included) other than tab and line breaks, DEL, and the C1 controls. */
// deno-lint-ignore no-control-regex
export const CONTROL_CHARS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/;

export const hasControlChars = (s: string): boolean => CONTROL_CHARS.test(s);

/** "Project name must not hold control characters". */
export const controlCharsMsg = (label: string) => `${label} must not hold control characters`;
