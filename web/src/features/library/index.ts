/**
 * What the library feature offers other features (tests/unit/layering_test.ts): a question's type
 * names and options editor, which a project's own pre-screen questions use too.
 */
export { QUESTION_TYPE_LABELS, type QuestionRecord } from "./library.ts";
export { OptionsSection } from "./OptionsSection.tsx";
