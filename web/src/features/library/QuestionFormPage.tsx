/**
 * /admin/library/question/add and /admin/library/question/:questionid/edit (part 2, Library and 5):
 * title ('question name  is required', at least 4), type TEXT/RADIO/DROPDOWN/CHECKBOX/MAP ('question
 * Type  is required'), options with their flags ('option is required'). A new question starts with two
 * empty options and an option can be removed only while there are 3 or more; MAP questions take one
 * option per line in a text box.
 */
import * as React from "react";
import { useParams } from "react-router";
import { useFormContext } from "react-hook-form";
import { Trash2 } from "lucide-react";
import { DEFAULT_LANGUAGE, QUESTION_TYPES, QuestionForm } from "../../../../shared/schemas/library.ts";
import { addTempQuestion, getTempQuestion, updateTempQuestion } from "../../../../shared/api/library.ts";
import { useSchemaForm } from "../../components/form/form.tsx";
import { RecordForm, RecordFormPage, type RecordKind } from "../../components/form/RecordFormPage.tsx";
import { newOption, OptionsSection } from "./OptionsSection.tsx";
import { TextField } from "../../components/form/fields.tsx";
import { SelectField } from "../../components/form/select-field.tsx";
import { useOptions } from "../../components/filters/useOptions.ts";
import { Select } from "../../components/ui/select.tsx";
import { Button } from "../../components/ui/button.tsx";
import { FormSection } from "../../components/form/FormParts.tsx";
import { LANGUAGES } from "../../lib/lookups.ts";
import { QUESTION_TYPE_LABELS, type QuestionRecord, TEMP_QUESTIONS_KEY } from "./library.ts";

const LIST = "/admin/library/question";

const TYPE_OPTIONS = QUESTION_TYPES.map((t) => ({ value: t, label: QUESTION_TYPE_LABELS[t] }));

const QUESTION: RecordKind<typeof getTempQuestion> = {
  what: "question",
  list: { to: LIST, label: "Questions" },
  get: getTempQuestion,
  add: addTempQuestion,
  update: updateTempQuestion,
  recordKey: (id) => ["question", id],
  lists: TEMP_QUESTIONS_KEY,
};

export default function QuestionFormPage() {
  const { questionid: id } = useParams();
  return (
    <RecordFormPage
      kind={QUESTION}
      id={id}
      intro="A library question projects can copy into their pre-screen."
    >
      {(question) => <QuestionEditor question={question} />}
    </RecordFormPage>
  );
}

function QuestionEditor({ question }: { question?: QuestionRecord }) {
  const lang = question?.languageId ?? DEFAULT_LANGUAGE;
  const form = useSchemaForm(QuestionForm, {
    languageId: lang,
    questionTitle: { ...(question?.questionTitle ?? {}), [lang]: question?.questionTitle[lang] ?? "" },
    questionType: question?.questionType ?? "",
    questionOption: question?.questionOption.length ? question.questionOption : [newOption(), newOption()],
    isActive: question?.isActive ?? true,
  });

  return (
    <RecordForm kind={QUESTION} form={form} record={question}>
      <FormSection title="Question" description="Fields marked * are required.">
        <TitleFields primary={lang} initial={Object.keys(question?.questionTitle ?? {})} />
        <SelectField
          name="questionType"
          label="Type"
          required
          options={TYPE_OPTIONS}
          placeholder="Select a type"
        />
      </FormSection>
      <OptionsSection />
    </RecordForm>
  );
}

/**
 * One title per language: the question's own language (English by default) first and required, then
 * any others added from the languages list and removable again. An empty extra title is not saved.
 */
function TitleFields({ primary, initial }: { primary: string; initial: string[] }) {
  const { getValues, setValue } = useFormContext();
  const [langs, setLangs] = React.useState(() => [primary, ...initial.filter((l) => l !== primary)]);
  const { options, loading } = useOptions(LANGUAGES);
  const nameOf = (code: string) => options.find((o) => o.value === code)?.label ?? code.toUpperCase();
  const addable = options.filter((o) => !langs.includes(o.value));

  function add(code: string) {
    if (!code || langs.includes(code)) return;
    setLangs([...langs, code]);
    setValue(`questionTitle.${code}`, "", { shouldDirty: true });
  }
  function remove(code: string) {
    const { [code]: _gone, ...rest } = (getValues("questionTitle") ?? {}) as Record<string, string>;
    setLangs(langs.filter((l) => l !== code));
    setValue("questionTitle", rest, { shouldDirty: true });
  }

  return (
    <div className="flex flex-col gap-4 sm:col-span-2" role="group" aria-label="Titles">
      {langs.map((code) =>
        code === primary
          ? (
            <TextField
              key={code}
              name={`questionTitle.${code}`}
              label={`Question (${nameOf(code)})`}
              required
              autoComplete="off"
              hint="At least 4 characters."
            />
          )
          : (
            <div key={code} className="flex items-end gap-2">
              <TextField
                name={`questionTitle.${code}`}
                label={`Question (${nameOf(code)})`}
                autoComplete="off"
                className="flex-1"
              />
              <Button
                type="button"
                variant="ghost"
                size="icon"
                className="text-destructive hover:bg-destructive/10 hover:text-destructive"
                aria-label={`Remove the ${nameOf(code)} title`}
                title="Remove this language"
                onClick={() => remove(code)}
              >
                <Trash2 />
              </Button>
            </div>
          )
      )}
      <div className="flex flex-col gap-1.5">
        <label htmlFor="add-title-language" className="text-sm font-medium">Add a language</label>
        <Select
          // a fresh select after each pick, so it reads "Add …" again
          key={langs.join(",")}
          id="add-title-language"
          value=""
          onValueChange={add}
          options={addable}
          placeholder={loading ? "Loading languages…" : "Choose a language"}
          disabled={loading || !addable.length}
          className="sm:w-72"
        />
        <p className="text-xs text-muted-foreground">
          Adds a title in that language. Type its first letters to jump to it.
        </p>
      </div>
    </div>
  );
}
