import * as v from "valibot";
import { MSG } from "../messages.ts";

export const LoginBody = v.object({
  email: v.pipe(
    v.string(MSG.emailInvalid),
    v.trim(),
    v.nonEmpty(MSG.emailInvalid),
    v.email(MSG.emailInvalid),
  ),
  password: v.pipe(v.string(MSG.passwordShort), v.minLength(7, MSG.passwordShort)),
  rememberMe: v.optional(v.boolean()),
});
export type LoginBody = v.InferOutput<typeof LoginBody>;
