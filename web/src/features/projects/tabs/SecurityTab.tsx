/**
 * Project Securities (part 1, 3 and 5): every check a respondent passes at entry. The most IPs per
 * address shows only with Unique IP on, the speed limit only with Speeder on. Multi-link, also a
 * flag of these settings, is switched on the Project URLs tab where its links are uploaded.
 */
import type * as React from "react";
import { useQueryClient } from "@tanstack/react-query";
import { useWatch } from "react-hook-form";
import { ProjectSecurity } from "../../../../../shared/schemas/project.ts";
import { api } from "../../../lib/api.ts";
import type { BodyIn } from "../../../../../shared/api/contract.ts";
import { updateProjectCall } from "../../../../../shared/api/projects.ts";
import { notify } from "../../../lib/notify.ts";
import { Form, useSchemaForm } from "../../../components/form/form.tsx";
import { SubmitButton, TextField } from "../../../components/form/fields.tsx";
import { SwitchField } from "../../../components/form/switch-field.tsx";
import { FormSection } from "../../../components/form/FormParts.tsx";
import { projectKey, type ProjectRecord } from "../projects.ts";
import { SECURITY_FLAGS, SECURITY_LABELS } from "../../../../../shared/schemas/project.ts";

const FLAGS = SECURITY_FLAGS;

export function SecurityTab({ project }: { project: ProjectRecord }) {
  const qc = useQueryClient();
  const form = useSchemaForm(ProjectSecurity, {
    ...Object.fromEntries(FLAGS.map((f) => [f, !!project[f]])),
    maxIPCount: String(project.maxIPCount ?? 1),
    speedTime: String(project.speedTime ?? 0),
  });

  async function submit(values: BodyIn<typeof updateProjectCall>) {
    const res = await api(updateProjectCall, { params: { id: project._id }, body: values });
    qc.setQueryData(projectKey(project._id), res.result);
    form.reset(form.getValues());
    notify.success(res.message);
  }

  return (
    <Form form={form} onSubmit={submit} guardUnsaved className="flex flex-col gap-5">
      <FormSection title="Links and returns" description="How the client's survey sends respondents back.">
        <SwitchField
          name="isDynamicThanksUrl"
          label={SECURITY_LABELS.isDynamicThanksUrl}
          description="Return links must carry a valid signature."
        />
        <SwitchField
          name="isClientUrlProtection"
          label={SECURITY_LABELS.isClientUrlProtection}
          description="Hide the client's survey address from respondents."
        />
      </FormSection>

      <FormSection title="Respondents" description="Who may enter.">
        <SwitchField
          name="isPreScreen"
          label={SECURITY_LABELS.isPreScreen}
          description="Ask the Pre Questionaire first."
        />
        <SwitchField
          name="isExclude"
          label={SECURITY_LABELS.isExclude}
          description="Apply the Exclude/Include list of projects."
        />
        <SwitchField
          name="isPii"
          label={SECURITY_LABELS.isPii}
          description="The survey collects personal data."
        />
        <SwitchField
          name="isGeoLocation"
          label={SECURITY_LABELS.isGeoLocation}
          description="Respondent's country must match."
        />
        <SwitchField
          name="allowRouting"
          label={SECURITY_LABELS.allowRouting}
          description="Refused respondents go on to the next survey; routed ones are taken."
        />
      </FormSection>

      <FormSection title="Devices" description="Devices allowed into the survey.">
        <SwitchField name="isDesktop" label={SECURITY_LABELS.isDesktop} />
        <SwitchField name="isMobile" label={SECURITY_LABELS.isMobile} />
        <SwitchField name="isTablet" label={SECURITY_LABELS.isTablet} />
      </FormSection>

      <FormSection title="Fraud checks">
        <SwitchField
          name="isProxyVpn"
          label={SECURITY_LABELS.isProxyVpn}
          description="Refuse traffic through proxies and VPNs."
        />
        <div />
        <SwitchField
          name="isUniqueIp"
          label={SECURITY_LABELS.isUniqueIp}
          description="Limit respondents per IP address."
        />
        <Conditional flag="isUniqueIp">
          <TextField
            name="maxIPCount"
            label="Max IP count"
            inputMode="numeric"
            autoComplete="off"
            hint="Most respondents from one IP address."
          />
        </Conditional>
        <SwitchField
          name="isSpeeder"
          label={SECURITY_LABELS.isSpeeder}
          description="Too-fast completes become quality terms."
        />
        <Conditional flag="isSpeeder">
          <TextField
            name="speedTime"
            label="Speed time"
            inputMode="numeric"
            autoComplete="off"
            hint="Seconds; faster completes are speeders."
          />
        </Conditional>
      </FormSection>

      <FormSection title="Research Defender" description="Refuse respondents above the chosen risk levels.">
        <SwitchField name="isRDLow" label={SECURITY_LABELS.isRDLow} />
        <SwitchField name="isRDMedium" label={SECURITY_LABELS.isRDMedium} />
        <SwitchField name="isRDHigh" label={SECURITY_LABELS.isRDHigh} />
      </FormSection>

      <div className="flex justify-end">
        <SubmitButton>Save securities</SubmitButton>
      </div>
    </Form>
  );
}

function Conditional({ flag, children }: { flag: string; children: React.ReactNode }) {
  const on = useWatch({ name: flag }) as boolean;
  return on ? <>{children}</> : <div aria-hidden="true" />;
}
