/**
 * What the projects feature offers other features (tests/unit/layering_test.ts): a project's status
 * as the other screens show it. Everything else under features/projects/ is its own.
 */
export { STATUS_OPTIONS, STATUS_TONES } from "./projects.ts";
export { StatusBadge } from "./StatusMenu.tsx";
