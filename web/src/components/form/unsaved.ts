/**
 * The plain parts of the unsaved-changes guard (`unsaved-changes.tsx`): its words and which moves
 * count as leaving a form, kept apart from React so they can be tested on their own.
 */
export const UNSAVED_TEXT = {
  title: "Leave without saving?",
  description: "Your changes to this form are not saved.",
  stay: "Stay",
  leave: "Leave",
} as const;

/**
 * Whether a move from `from` to `to` leaves the form behind: another path does (changing only the
 * query string, a tab of the same page say, does not). The sign-in page never waits: the session
 * has ended or the user signed out, and nothing could be saved by staying.
 */
export function leavesForm(from: { pathname: string }, to: { pathname: string }): boolean {
  return from.pathname !== to.pathname && to.pathname !== "/login";
}
