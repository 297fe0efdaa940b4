import * as v from "valibot";
import { MSG } from "../messages.ts";

export const LoginBody = v.object({
  // a missing field reads as "" so the form's own message is given, not valibot's 'Invalid key'
  email: v.pipe(
    v.optional(v.string(MSG.emailInvalid), ""),
    v.trim(),
    v.nonEmpty(MSG.emailInvalid),
    v.maxLength(254, MSG.emailInvalid),
    v.email(MSG.emailInvalid),
  ),
  password: v.pipe(
    v.optional(v.string(MSG.passwordShort), ""),
    v.minLength(7, MSG.passwordShort),
    v.maxLength(1024, MSG.invalidCredentials),
  ),
  rememberMe: v.optional(v.boolean()),
});
export type LoginBody = v.InferOutput<typeof LoginBody>;
