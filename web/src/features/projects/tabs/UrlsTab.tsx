/**
 * Project URLs (part 1, 5): one live and one test survey link carrying the [uid] placeholder
 * ('Invalid Url' otherwise), or multi-link mode, where a CSV (no header row) gives one link per
 * respondent; the screen shows 'N links uploaded' with a clear button.
 */
import * as React from "react";
import { useQueryClient } from "@tanstack/react-query";
import { useWatch } from "react-hook-form";
import { Download, FileUp, X } from "lucide-react";
import { ProjectUrls } from "../../../../../shared/schemas/project.ts";
import { api } from "../../../lib/api.ts";
import { updateProjectCall } from "../../../../../shared/api/projects.ts";
import { notify } from "../../../lib/notify.ts";
import { Form, useSchemaForm } from "../../../components/form/form.tsx";
import { SubmitButton, TextField } from "../../../components/form/fields.tsx";
import { SwitchField } from "../../../components/form/switch-field.tsx";
import { UnsavedChangesGuard } from "../../../components/form/unsaved-changes.tsx";
import { Button, buttonVariants } from "../../../components/ui/button.tsx";
import { FormSection } from "../../../components/form/FormParts.tsx";
import { isSurveyUrl, isUrlTitle, readFirstColumn } from "../csv.ts";
import { projectKey, type ProjectRecord } from "../projects.ts";

export function UrlsTab({ project }: { project: ProjectRecord }) {
  const qc = useQueryClient();
  const form = useSchemaForm(ProjectUrls, {
    isMultiLinkUrl: project.isMultiLinkUrl,
    singleLinkUrl: project.singleLinkUrl,
    singleLinkUrlTest: project.singleLinkUrlTest,
  });
  /** Links of a new upload (null: keep what the server has). */
  const [links, setLinks] = React.useState<string[] | null>(null);
  const [saved, setSaved] = React.useState(project.multiLinkCount);

  async function submit(
    values: { isMultiLinkUrl?: boolean; singleLinkUrl: string; singleLinkUrlTest: string },
  ) {
    const count = links ?? null;
    if (values.isMultiLinkUrl && (count ? count.length : saved) === 0) {
      notify.error("Upload the survey links (CSV) first, or turn multi-link off");
      return;
    }
    const res = await api(updateProjectCall, {
      params: { id: project._id },
      body: {
        isMultiLinkUrl: !!values.isMultiLinkUrl,
        singleLinkUrl: values.singleLinkUrl,
        singleLinkUrlTest: values.singleLinkUrlTest,
        ...(links !== null ? { multiLinkUrls: links } : {}),
      },
    });
    qc.setQueryData(projectKey(project._id), res.result);
    // an update that did not delete answers the project with its link count
    const linkCount = "multiLinkCount" in res.result ? res.result.multiLinkCount : undefined;
    setSaved(linkCount ?? (links?.length ?? saved));
    setLinks(null);
    form.reset(values);
    notify.success(res.message);
  }

  return (
    <Form form={form} onSubmit={submit} guardUnsaved className="flex flex-col gap-5">
      <FormSection
        title="Survey links"
        description={
          <>
            Where respondents are sent. Each link must carry the respondent id placeholder{" "}
            <code className="rounded bg-muted px-1">[uid]</code>, for example{" "}
            <code className="rounded bg-muted px-1">https://survey.example.com/s/8842?uid=[uid]</code>.
          </>
        }
        contentClassName="sm:grid-cols-1"
      >
        <SwitchField
          name="isMultiLinkUrl"
          label="Multi-link"
          description="Every respondent gets a link of their own from an uploaded list."
        />
        <LinksBody links={links} setLinks={setLinks} saved={saved} />
      </FormSection>
      <div className="flex justify-end gap-2">
        <SubmitButton>Save URLs</SubmitButton>
      </div>
      {/* an uploaded list of links not saved yet is an unsaved change too */}
      <UnsavedChangesGuard when={links !== null && !form.formState.isSubmitting} />
    </Form>
  );
}

function LinksBody({
  links,
  setLinks,
  saved,
}: {
  links: string[] | null;
  setLinks: (l: string[] | null) => void;
  saved: number;
}) {
  const multi = useWatch({ name: "isMultiLinkUrl" }) as boolean;
  const input = React.useRef<HTMLInputElement>(null);
  const [reading, setReading] = React.useState(false);
  const count = links ? links.length : saved;

  async function onFile(file: File | undefined) {
    if (!file) return;
    setReading(true);
    try {
      const { values, rejected } = await readFirstColumn(file, isSurveyUrl, isUrlTitle);
      if (!values.length) {
        notify.error("No links found in the file: one URL per row, no header");
        return;
      }
      setLinks(values);
      if (rejected.length) {
        notify.warning(
          `${values.length} links uploaded; ${rejected.length} row${
            rejected.length === 1 ? " is" : "s are"
          } not a URL`,
        );
      }
    } catch {
      notify.error("The file could not be read as CSV");
    } finally {
      setReading(false);
      if (input.current) input.current.value = "";
    }
  }

  if (!multi) {
    return (
      <>
        <TextField
          name="singleLinkUrl"
          label="Live URL"
          type="url"
          autoComplete="off"
          spellCheck={false}
          placeholder="https://survey.example.com/s/8842?uid=[uid]"
        />
        <TextField
          name="singleLinkUrlTest"
          label="Test URL"
          type="url"
          autoComplete="off"
          spellCheck={false}
          placeholder="https://survey.example.com/s/8842?uid=[uid]&test=1"
          hint="Used by the suppliers' test links."
        />
      </>
    );
  }
  return (
    <div className="flex flex-col gap-2 rounded-lg border border-dashed p-4">
      <div className="flex flex-wrap items-center gap-2">
        <input
          ref={input}
          type="file"
          accept=".csv,text/csv,text/plain"
          className="sr-only"
          aria-label="Upload survey links CSV"
          onChange={(e) => void onFile(e.target.files?.[0])}
        />
        <Button type="button" variant="outline" loading={reading} onClick={() => input.current?.click()}>
          {reading ? null : <FileUp />} Upload CSV
        </Button>
        <span className="text-sm font-medium" aria-live="polite" data-testid="links-count">
          {count} links uploaded
        </span>
        {links !== null ? <span className="text-xs text-muted-foreground">(not saved yet)</span> : null}
        {count > 0
          ? (
            <Button type="button" variant="ghost" size="sm" onClick={() => setLinks([])}>
              <X /> Clear
            </Button>
          )
          : null}
        <a
          href="/assets/csv/sample_link.csv"
          download
          className={buttonVariants({ variant: "link", size: "sm", className: "ml-auto px-0" })}
        >
          <Download /> Sample CSV
        </a>
      </div>
      <p className="text-xs text-muted-foreground">
        One link per row in the first column, no header row. A new upload replaces the links not handed out
        yet.
      </p>
      {links?.length
        ? (
          <ul className="max-h-32 overflow-y-auto rounded bg-muted/50 p-2 text-xs">
            {links.slice(0, 20).map((l) => <li key={l} className="truncate font-mono">{l}</li>)}
            {links.length > 20
              ? <li className="text-muted-foreground">… and {links.length - 20} more</li>
              : null}
          </ul>
        )
        : null}
    </div>
  );
}
