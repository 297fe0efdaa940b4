/**
 * The demo projects of the plans (server/seed/plans.ts), made by the projects domain as a manager
 * would: group projects and their children, client links, security settings, quotas on the demo
 * qualifications, supplier maps and pre-screen questions, each dated to when its field work began.
 */
import * as v from "valibot";
import type { Deps } from "../deps.ts";
import { SYSTEM_ACTOR } from "../domain/audit/log.ts";
import { ChildProject, GroupProject, ProjectPatch, SupplierMapForm } from "../../shared/schemas/project.ts";
import { QuestionForm } from "../../shared/schemas/library.ts";
import type { Caller } from "../domain/projects/projects.ts";
import { createChildProject, createGroupProject } from "../domain/projects/create.ts";
import { updateProject } from "../domain/projects/update.ts";
import { PROJECT_STATUS } from "../../shared/status.ts";
import { saveSupplierMap } from "../domain/projects/supplier-maps.ts";
import { addQuota, updateQuota, updateQuotaSizes } from "../domain/projects/quotas.ts";
import { createQuestion } from "../domain/library/questions.ts";
import { projectSecret } from "../domain/router/config.ts";
import { type Clock, wallClock } from "../domain/common/clock.ts";
import { type ChildPlan, DAY, PLANS } from "./plans.ts";

/** A child project as made: its plan, supplier maps, signing secret and pre-screen answers. */
export type Child = {
  id: string;
  plan: ChildPlan;
  maps: string[];
  secret: string;
  questions: { id: string; ok: string[]; bad: string[] }[];
};

/** A made child with its group project (and the group's PO, for closing it). */
export type SeededChild = { parentId: string; po?: string; child: Child };

export type DemoRefs = {
  clientIds: string[];
  supplierIds: string[];
  managerId: string;
  /** Demo qualifications by name, for the quotas. */
  qualifications: Map<string, { _id: string; qualificationOptions: { _id: string; text: string }[] }>;
};

export const iso = (ms: number) => new Date(ms).toISOString();
const isoDay = (ms: number) => iso(ms).slice(0, 10);

/** Makes every planned project; `now` is the demo's today, `clock` the domain's clock. */
export async function seedProjects(
  deps: Deps,
  refs: DemoRefs,
  caller: Caller,
  now: number,
  clock: Clock,
): Promise<{ children: SeededChild[]; projects: number; childProjects: number; supplierMaps: number }> {
  const { db } = deps;
  // the manager's (whose projects these are) and the system's, on the seed's clock
  const manager = { ...deps, now: clock, ...caller };
  const system = { ...deps, actor: SYSTEM_ACTOR, now: clock };
  const entryBase = (deps.env.PUBLIC_URL ?? `http://localhost:${deps.env.PORT}`).replace(/\/$/, "");
  const counts = { projects: 0, childProjects: 0, supplierMaps: 0 };
  const suppliers = await db.selectFrom("suppliers").selectAll().where("id", "in", refs.supplierIds)
    .execute();
  const supplierById = new Map(suppliers.map((s) => [s.id, s]));
  const children: SeededChild[] = [];

  for (const p of PLANS) {
    const start = now - Math.max(...p.children.map((c) => c.from), 1) * DAY;
    const parent = await createGroupProject(
      manager,
      v.parse(GroupProject, {
        projectName: p.name,
        clientId: refs.clientIds[p.client],
        userId: refs.managerId,
        averageLOI: p.loi,
        ir: p.ir,
        projectDescription: `${p.name}: online quantitative study`,
        clientEmail: "fieldwork@example.com",
      }),
    );
    counts.projects++;
    for (const c of p.children) {
      const child = await createChildProject(
        manager,
        v.parse(ChildProject, {
          projectName: c.name,
          parentProjectId: parent._id,
          clientId: refs.clientIds[p.client],
          countryId: c.country,
          languageId: c.language ?? "en",
          averageLOI: c.loi,
          ir: c.ir,
          sampleSize: c.sampleSize,
          respondentClickQuota: 0,
          cpi: c.cpi,
          startDate: isoDay(now - c.from * DAY),
          endDate: isoDay(now + 30 * DAY),
        }),
      );
      counts.childProjects++;
      const code = (child.projectCode as string).toLowerCase();
      const prescreen = !!c.questions?.length;
      await updateProject(manager, {
        ...v.parse(ProjectPatch, {
          singleLinkUrl: `https://surveys.client.example/${code}?rid=[uid]`,
          singleLinkUrlTest: `https://surveys.client.example/${code}/test?rid=[uid]`,
          ...(c.multiLinks
            ? {
              isMultiLinkUrl: true,
              multiLinkUrls: Array.from(
                { length: c.multiLinks },
                (_, i) =>
                  `https://surveys.client.example/${code}/l${String(i + 1).padStart(3, "0")}?rid=[uid]`,
              ),
            }
            : {}),
          isPreScreen: prescreen,
          ...c.security,
          projectStatus: c.status === PROJECT_STATUS.TESTING ? PROJECT_STATUS.TESTING : PROJECT_STATUS.LIVE,
        }),
        id: child._id,
      });
      for (const quota of c.quotas ?? []) {
        const qual = refs.qualifications.get(quota.qualification)!;
        const chosen = qual.qualificationOptions.filter((o) => o.text in quota.sizes);
        const [{ _id: quotaId }] = (await addQuota(system, {
          projectId: child._id,
          qualificationId: qual._id,
        }))
          .filter((q) => q.quotaId._id === qual._id);
        await updateQuota(system, {
          quotaOptionId: chosen.map((o) => o._id),
          quotaId,
          projectId: child._id,
        });
        await updateQuotaSizes(system, {
          quotaId,
          projectId: child._id,
          values: chosen.map((o) => ({ quotaOptionId: o._id, quotaSize: quota.sizes[o.text] })),
        });
      }
      const maps: string[] = [];
      for (const si of c.suppliers) {
        const s = supplierById.get(refs.supplierIds[si])!;
        const rules = s.supplierRuleCPI.split("|").map(Number).filter((n) => n > 0);
        const { id } = await saveSupplierMap(system, {
          ...v.parse(SupplierMapForm, {
            projectId: child._id,
            supplierId: s.id,
            supplierCPI: Math.min(c.cpi * 0.6, rules[0] ?? c.cpi * 0.6).toFixed(2),
            supplierQuota: Math.ceil(c.sampleSize / c.suppliers.length) + 10,
            isPreScreen: prescreen,
            isTestLink: true,
            redirectComplete: s.redirectComplete,
            redirectTerminate: s.redirectTerminate,
            redirectQuotaFull: s.redirectQuotaFull,
            redirectQualityTerm: s.redirectQualityTerm,
            redirectSurveyClose: s.redirectSurveyClose,
          }),
          entryBase,
        });
        maps.push(id);
        counts.supplierMaps++;
      }
      const questions: Child["questions"] = [];
      for (const q of c.questions ?? []) {
        const bad = q.bad ?? [];
        const made = await createQuestion({ ...deps, actor: SYSTEM_ACTOR, now: wallClock }, {
          ...v.parse(QuestionForm, {
            languageId: c.language ?? "en",
            questionTitle: q.title,
            questionType: "RADIO",
            questionOption: q.options.map((o) => ({ title: o, formvalidate: !bad.includes(o) })),
          }),
          scope: { kind: "project", projectId: child._id },
        });
        questions.push({
          id: made._id,
          ok: made.questionOption.filter((o) => !bad.includes(o.title)).map((o) => o._id),
          bad: made.questionOption.filter((o) => bad.includes(o.title)).map((o) => o._id),
        });
      }
      children.push({
        parentId: parent._id,
        po: p.po,
        child: { id: child._id, plan: c, maps, secret: await projectSecret(db, child._id), questions },
      });
      // the project was set up when its field work began
      await db.updateTable("projects").set({ createdAt: iso(start), statusChangedAt: iso(start) })
        .where("id", "in", [parent._id, child._id]).execute();
    }
  }
  return { children, ...counts };
}
