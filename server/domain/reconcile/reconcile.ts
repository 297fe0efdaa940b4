/**
 * Reconcile uploads and their undo (spec part 2, sections 2, 4, 7).
 *
 * An upload approves (1) or rejects (2) the sessions its identifiers (respondent uids) name, among
 * the live completes of the project (a group project: its children). It is applied in chunks of
 * short transactions with the event loop given back between them (the router keeps serving), the
 * upload `applying` meanwhile and rolled back from its recorded sessions on a failure or after a
 * crash: all of it or nothing (see reconcileUpload). `reconcile_stage` is no longer written.
 *
 * A session's state is a row of the narrow `session_reconciles` (migration 0018; no row: not
 * reconciled), not a column of the wide session row: an upload writes a few dozen bytes a session
 * instead of rewriting most pages of the sessions table.
 *
 * Only sessions not reconciled yet change, so two uploads racing on one project never count a
 * session twice (the second one finds it already reconciled), and an undo restores exactly the
 * state before its upload: the sessions it changed back to not reconciled, the counters and rollup
 * down by the same amounts, its queued post-backs withdrawn (those already sent are not sent again).
 *
 * The rooms of this folder: the identifiers of an upload (./identifiers.ts), its apply in chunks
 * (./apply.ts, ./chunk.ts), the rollback of one that did not finish (./rollback.ts), the approved
 * post-backs (./post-backs.ts), the undo (./undo.ts); this file is the folder's door for the
 * routes, the CLI and the seed.
 */
export { identifiersOfUpload } from "./identifiers.ts";
export { reconcileUpload } from "./apply.ts";
export { recoverReconciles } from "./rollback.ts";
export { HOOK_HELD } from "./post-backs.ts";
export { undoReconcile } from "./undo.ts";
