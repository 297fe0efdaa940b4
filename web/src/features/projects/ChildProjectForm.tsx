/**
 * The child project form (part 1, 3 and 5, Child project form) on the shared ChildProject schema:
 * every field with its default (language en, currency USD, test click quota 5, start today, end a
 * month later, status 2), the client locked to the parent's, country, regions and cities from the
 * lookups, zip codes from a CSV. Adding it and the Project Information tab both use it; when
 * editing, the language is locked.
 */
import * as React from "react";
import { useNavigate } from "react-router";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useFormContext, useWatch } from "react-hook-form";
import { Download, FileUp, X } from "lucide-react";
import { ChildProject } from "../../../../shared/schemas/project.ts";
import { api } from "../../lib/api.ts";
import { addProject, getProjectCall, updateProjectCall } from "../../../../shared/api/projects.ts";
import { notify } from "../../lib/notify.ts";
import { cn } from "../../lib/utils.ts";
import { Form, useSchemaForm } from "../../components/form/form.tsx";
import { TextareaField, TextField } from "../../components/form/fields.tsx";
import { MultiSelectField } from "../../components/form/multi-select-field.tsx";
import { Button, buttonVariants } from "../../components/ui/button.tsx";
import type { Option } from "../../components/ui/select.tsx";
import { FormActions, FormSection } from "../../components/form/FormParts.tsx";
import { CountryField, LookupSelectField } from "../../components/form/lookup-fields.tsx";
import { CLIENTS } from "../../lib/lookups.ts";
import { isZipCode, isZipTitle, readFirstColumn } from "./csv.ts";
import { DateField, LookupField, PoNumberField, StatusField } from "./fields.tsx";
import {
  CATEGORIES,
  childrenKey,
  CURRENCIES,
  isoDay,
  LANGUAGES,
  monthAfter,
  PARENT_PROJECTS,
  projectKey,
  type ProjectRecord,
} from "./projects.ts";
import { citiesCall, regionsCall } from "../../../../shared/api/lookups.ts";

type Values = Record<string, unknown>;

function defaults(parent: ProjectRecord | undefined, project: ProjectRecord | undefined): Values {
  if (project) {
    return {
      projectName: project.projectName,
      projectDescription: project.projectDescription,
      clientId: project.clientId,
      parentProjectId: project.parentProjectId ?? "",
      wid: project.wid,
      categoryId: project.categoryId ?? "",
      countryId: project.countryId ?? "",
      regionId: project.regionId,
      cityId: project.cityId,
      zipCodeId: project.zipCodeId,
      languageId: project.languageId || "en",
      averageLOI: String(project.averageLOI),
      ir: String(project.ir),
      sampleSize: String(project.sampleSize),
      respondentClickQuota: String(project.respondentClickQuota),
      respondentTestClickQuota: String(project.respondentTestClickQuota),
      currencyId: project.currencyId || "USD",
      cpi: String(project.cpi),
      startDate: (project.startDate ?? "").slice(0, 10),
      endDate: (project.endDate ?? "").slice(0, 10),
      projectStatus: String(project.projectStatus),
      poNumber: project.poNumber,
    };
  }
  const today = isoDay(new Date());
  return {
    projectName: "",
    projectDescription: "",
    clientId: parent?.clientId ?? "",
    parentProjectId: parent?._id ?? "",
    wid: "",
    categoryId: "",
    countryId: "",
    regionId: [],
    cityId: [],
    zipCodeId: [],
    languageId: "en",
    averageLOI: parent ? String(parent.averageLOI) : "",
    ir: parent ? String(parent.ir) : "",
    sampleSize: "",
    respondentClickQuota: "",
    respondentTestClickQuota: "5",
    currencyId: "USD",
    cpi: "",
    startDate: today,
    endDate: monthAfter(today),
    projectStatus: "2",
    poNumber: "",
  };
}

export function ChildProjectForm({
  parent,
  project,
  pickParent = false,
  className,
}: {
  /** The group project a new child goes under (absent when the user picks it). */
  parent?: ProjectRecord;
  /** The child being edited. */
  project?: ProjectRecord;
  /** /admin/project/child/add: the parent is chosen on the form. */
  pickParent?: boolean;
  /** The width: the add page's, or that of the edit page's tab panels. */
  className?: string;
}) {
  const navigate = useNavigate();
  const qc = useQueryClient();
  const form = useSchemaForm(ChildProject, defaults(parent, project));
  const editing = !!project;

  async function submit(values: ChildProject) {
    const { categoryId, ...rest } = values;
    const body = { ...rest, categoryId: categoryId || null };
    const res = project
      ? await api(updateProjectCall, { params: { id: project._id }, body })
      : await api(addProject, { body });
    await qc.invalidateQueries({ queryKey: ["list"] });
    // refreshed, not dropped: the edit page stays mounted (with its other tabs) if leaving is held up
    void qc.invalidateQueries({ queryKey: projectKey(res.result._id) });
    qc.removeQueries({ queryKey: childrenKey(values.parentProjectId) });
    notify.success(res.message);
    // what was saved is the new starting point: only other tabs' unsaved changes may hold the page
    form.reset(form.getValues());
    navigate(`/admin/project/${values.parentProjectId}/childs`);
  }

  const cancelTo = parent || project
    ? `/admin/project/${parent?._id ?? project?.parentProjectId}/childs`
    : "/admin/project";

  return (
    <Form form={form} onSubmit={submit} guardUnsaved className={cn("flex flex-col gap-5", className)}>
      <FormSection title="Project" description="Fields marked * are required.">
        {pickParent ? <ParentPicker /> : null}
        <TextField
          name="projectName"
          label="Project name"
          required
          autoComplete="off"
          className="sm:col-span-2"
          hint="At least 4 characters."
        />
        <LookupField
          name="clientId"
          label="Client"
          source={CLIENTS}
          required
          disabled
          placeholder={pickParent ? "Follows the group project" : "Select a client"}
          hint="The client of the group project."
        />
        <LookupSelectField name="categoryId" label="Category" source={CATEGORIES} noneLabel="No category" />
        <TextField name="wid" label="WID" autoComplete="off" hint="The client's work or wave id, if any." />
        <TextareaField name="projectDescription" label="Description" rows={2} className="sm:col-span-2" />
      </FormSection>

      <FormSection title="Targeting" description="Where respondents come from and the survey's language.">
        <CountryField />
        <LookupField
          name="languageId"
          label="Language"
          source={LANGUAGES}
          required
          disabled={editing}
          placeholder="Select a language"
          hint={editing ? "The language of an existing child project cannot change." : undefined}
        />
        <RegionsField />
        <CitiesField />
        <ZipCodesField />
      </FormSection>

      <FormSection title="Fieldwork" description="Size, price, limits and dates.">
        <TextField name="sampleSize" label="Sample size" required inputMode="numeric" autoComplete="off" />
        <TextField
          name="respondentClickQuota"
          label="Respondent click quota"
          required
          inputMode="numeric"
          autoComplete="off"
          hint="Most clicks the project takes."
        />
        <TextField
          name="respondentTestClickQuota"
          label="Respondent test click quota"
          required
          inputMode="numeric"
          autoComplete="off"
          hint="Clicks allowed on the test link."
        />
        <TextField
          name="averageLOI"
          label="Average LOI"
          required
          inputMode="numeric"
          autoComplete="off"
          hint="Minutes, digits only."
        />
        <TextField
          name="ir"
          label="IR"
          required
          inputMode="numeric"
          autoComplete="off"
          hint="Percent, digits only."
        />
        <div className="grid grid-cols-[1fr_1.4fr] gap-3">
          <TextField name="cpi" label="CPI" required inputMode="decimal" autoComplete="off" />
          <LookupField
            name="currencyId"
            label="Currency"
            source={CURRENCIES}
            required
            placeholder="Currency"
          />
        </div>
        <DatesFields editing={editing} />
        <StatusField current={project?.projectStatus} />
        <PoNumberField />
      </FormSection>

      <FormActions cancelTo={cancelTo} submitLabel={project ? "Save changes" : "Create child project"} />
    </Form>
  );
}

/** /admin/project/child/add: choose the group project; the client follows it. */
function ParentPicker() {
  const { setValue } = useFormContext();
  const parentId = useWatch({ name: "parentProjectId" }) as string;
  const parent = useQuery({
    queryKey: projectKey(parentId),
    enabled: !!parentId,
    queryFn: async ({ signal }) =>
      (await api(getProjectCall, { params: { id: parentId } }, { signal })).result,
  });
  React.useEffect(() => {
    if (parent.data) setValue("clientId", parent.data.clientId, { shouldValidate: true });
  }, [parent.data, setValue]);
  return (
    <LookupField
      name="parentProjectId"
      label="Group project"
      source={PARENT_PROJECTS}
      required
      placeholder="Select the group project"
      className="sm:col-span-2"
    />
  );
}

function DatesFields({ editing }: { editing: boolean }) {
  const start = useWatch({ name: "startDate" }) as string;
  const [today] = React.useState(() => isoDay(new Date()));
  return (
    <>
      <DateField name="startDate" label="Start date" required min={editing ? undefined : today} />
      <DateField name="endDate" label="End date" required min={start || today} />
    </>
  );
}

function RegionsField() {
  const { setValue, getValues } = useFormContext();
  const country = useWatch({ name: "countryId" }) as string;
  const previous = React.useRef(country);
  const regions = useQuery({
    queryKey: ["regions", country],
    enabled: !!country,
    staleTime: 10 * 60_000,
    queryFn: async ({ signal }) =>
      (await api(regionsCall, { body: { countryId: country } }, { signal })).result as Option[],
  });
  // a new country starts without regions and cities (not when the record first loads)
  React.useEffect(() => {
    if (previous.current === country) return;
    previous.current = country;
    if ((getValues("regionId") as string[]).length) setValue("regionId", [], { shouldDirty: true });
    if ((getValues("cityId") as string[]).length) setValue("cityId", [], { shouldDirty: true });
  }, [country, getValues, setValue]);
  const options = (regions.data ?? []).map((r) => ({ value: r.value, label: r.label }));
  return (
    <MultiSelectField
      name="regionId"
      label="Regions"
      options={options}
      loading={!!country && regions.isPending}
      disabled={!country}
      placeholder={country ? (options.length ? "All regions" : "No regions") : "Choose a country first"}
    />
  );
}

function CitiesField() {
  const { setValue, getValues } = useFormContext();
  const regionIds = (useWatch({ name: "regionId" }) as string[] | undefined) ?? [];
  const key = [...regionIds].sort().join(",");
  const cities = useQuery({
    queryKey: ["cities", key],
    enabled: regionIds.length > 0,
    staleTime: 10 * 60_000,
    queryFn: async ({ signal }) => {
      const res = await api(citiesCall, { body: { regionIds, limit: 500 } }, { signal });
      return { list: res.result as Option[], note: res.message === "Success" ? "" : res.message };
    },
  });
  // cities of regions no longer chosen go
  React.useEffect(() => {
    const chosen = (getValues("cityId") as string[]) ?? [];
    const keep = chosen.filter((c) => regionIds.some((r) => c.startsWith(`${r}:`)));
    if (keep.length !== chosen.length) setValue("cityId", keep, { shouldDirty: true });
  }, [key]);
  const options = (cities.data?.list ?? []).map((c) => ({ value: c.value, label: c.label }));
  return (
    <MultiSelectField
      name="cityId"
      label="Cities"
      options={options}
      loading={regionIds.length > 0 && cities.isPending}
      disabled={regionIds.length === 0}
      placeholder={regionIds.length ? "All cities" : "Choose regions first"}
      hint={cities.data?.note || undefined}
    />
  );
}

/** Zip codes from a CSV (one per row, no header); shows how many were uploaded, with a clear button. */
function ZipCodesField() {
  const { setValue } = useFormContext();
  const zips = (useWatch({ name: "zipCodeId" }) as string[] | undefined) ?? [];
  const input = React.useRef<HTMLInputElement>(null);
  const [reading, setReading] = React.useState(false);
  const id = "field-zipCodeId";

  async function onFile(file: File | undefined) {
    if (!file) return;
    setReading(true);
    try {
      const { values, rejected } = await readFirstColumn(file, isZipCode, isZipTitle);
      if (!values.length) {
        notify.error("No zip codes found in the file: one code per row, no header");
        return;
      }
      setValue("zipCodeId", values, { shouldDirty: true, shouldValidate: true });
      if (rejected.length) {
        notify.warning(
          `${values.length} zip codes uploaded; ${rejected.length} row${
            rejected.length === 1 ? "" : "s"
          } skipped`,
        );
      }
    } catch {
      notify.error("The file could not be read as CSV");
    } finally {
      setReading(false);
      if (input.current) input.current.value = "";
    }
  }

  return (
    <div className="flex flex-col gap-1.5 sm:col-span-2">
      <span id={`${id}-label`} className="text-sm font-medium">Zip codes</span>
      <div className="flex flex-wrap items-center gap-2" role="group" aria-labelledby={`${id}-label`}>
        <input
          ref={input}
          id={id}
          type="file"
          accept=".csv,text/csv,text/plain"
          className="sr-only"
          aria-label="Upload zip codes CSV"
          onChange={(e) => void onFile(e.target.files?.[0])}
        />
        <Button type="button" variant="outline" loading={reading} onClick={() => input.current?.click()}>
          {reading ? null : <FileUp />} Upload CSV
        </Button>
        <span className="text-sm" aria-live="polite" data-testid="zip-count">
          {zips.length
            ? `${zips.length} zip code${zips.length === 1 ? "" : "s"} uploaded`
            : <span className="text-muted-foreground">No zip codes: the whole area</span>}
        </span>
        {zips.length
          ? (
            <Button
              type="button"
              variant="ghost"
              size="sm"
              onClick={() => setValue("zipCodeId", [], { shouldDirty: true })}
            >
              <X /> Clear
            </Button>
          )
          : null}
        <a
          href="/assets/csv/sample_zip.csv"
          download
          className={buttonVariants({ variant: "link", size: "sm", className: "ml-auto px-0" })}
        >
          <Download /> Sample CSV
        </a>
      </div>
      <p className="text-xs text-muted-foreground">
        One zip code per row in the first column, no header row.
        {zips.length ? ` First: ${zips.slice(0, 5).join(", ")}${zips.length > 5 ? ", …" : ""}` : ""}
      </p>
    </div>
  );
}
