/**
 * What the projects feature offers other features (tests/unit/layering_test.ts): a project's status
 * as the other screens show it, and the question whether a status move e-mails the suppliers.
 * Everything else under features/projects/ is its own.
 */
export { STATUS_OPTIONS, STATUS_TONES } from "./projects.ts";
export { StatusBadge } from "./StatusMenu.tsx";
export { EmailSuppliersQuestion } from "./EmailSuppliersQuestion.tsx";
