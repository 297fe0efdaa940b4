/**
 * What each screen of a later release will do, in one line, shown under its title by the
 * placeholder (from the spec's screen lists). Kept here, in the placeholder's lazily loaded
 * module, so the sign-in page does not pay for it.
 */
export const PLACEHOLDER_DESCRIPTIONS: Record<string, string> = {
  "/admin/invoice/:projectid/edit": "Change a project's invoice.",
};
