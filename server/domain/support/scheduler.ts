/**
 * The scheduler of Support > Scheduled Jobs, inside the server: on each tick it runs the jobs that
 * are due. A job checks its project:
 * - a Live project whose completes reached its sample size is Paused;
 * - a project past its end date (not yet Closed or further) is Closed;
 * each through the projects domain's status change (applyStatus: its log rows, a group's children
 * follow, the router is told), and the job logs what it did in the system log.
 * A Soft job changes nothing: it e-mails the project's progress report (the PNG) to the project's
 * manager through the e-mail outbox. Each run records its time and outcome on the job.
 *
 * Several instances may share the database, each with its own scheduler: a due job is claimed with
 * one conditional UPDATE (its nextRunAt moved to the end of a lease) before it runs, and only the
 * scheduler whose UPDATE changed the row runs it, as the approved hooks are claimed (router/hooks.ts).
 * A run whose instance died leaves the lease, after which the job is due again.
 */
import { wallClock } from "../common/clock.ts";
import type { Db } from "../../db/connection.ts";
import type { Logger } from "../../logger.ts";
import { type Actor, writeLog } from "../audit/log.ts";
import { DomainError } from "../errors.ts";
import { applyStatus } from "../projects/status.ts";
import type { ChangeNotifier } from "../common/changes.ts";
import { enqueueMails } from "../email/outbox.ts";
import { progressData } from "../progress/data.ts";
import { progressFileName, progressPng } from "../progress/image.ts";
import {
  isFinishedStatus,
  PROJECT_STATUS,
  PROJECT_TYPE,
  projectStatusLabel,
} from "../../../shared/status.ts";
import { escapeHtml } from "../../../shared/html.ts";
import { Buffer } from "node:buffer";
import { MODULE } from "./jobs.ts";

/** Who the scheduler's changes are logged as. */
export const SCHEDULER_ACTOR: Actor = { userId: null, name: "Scheduled job", device: "server" };
/** How often the server's scheduler looks for due jobs. */
export const SCHEDULER_TICK_MS = 30_000;
const MINUTE = 60_000;

export type SchedulerOptions = {
  /** The app's change notifier (deps.services.changes): the router rereads a project a job changed. */
  changes: ChangeNotifier;
  /** The clock (deps.now); default Date.now. */
  now?: () => number;
  /** How long a claimed run is left to its scheduler before another may take the job (default 10 min). */
  leaseMs?: number;
  /** Called after a run queued mail (the server starts a delivery). */
  onMail?: () => void;
  /** Asked before each timed tick: false skips it (another instance holds the task's lease). */
  gate?: () => Promise<boolean>;
};

export type JobRun = { jobId: string; projectCode: string; status: "ok" | "error"; outcome: string };

type Due = { id: string; projectId: string; interval: number; isSoft: number; nextRunAt: string };

export class JobScheduler {
  #timer: ReturnType<typeof setInterval> | undefined;
  #running: Promise<JobRun[]> | null = null;

  constructor(
    private readonly db: Db,
    private readonly log: Logger,
    private readonly opts: SchedulerOptions,
  ) {}

  #now() {
    return (this.opts.now ?? wallClock)();
  }

  /** Runs the due jobs this scheduler claims; one tick at a time per scheduler. */
  tick(): Promise<JobRun[]> {
    if (this.#running) return this.#running;
    this.#running = this.#tick().finally(() => (this.#running = null));
    return this.#running;
  }

  /** Ticks every `everyMs` (and once now), each timed tick asking `gate` first (default opts.gate). */
  start(everyMs = SCHEDULER_TICK_MS, gate = this.opts.gate) {
    const run = () =>
      (gate ?? (() => Promise.resolve(true)))().then((go) => go ? this.tick() : []).catch((e) =>
        this.log.error("scheduled jobs tick failed", { error: e instanceof Error ? e.message : String(e) })
      );
    run();
    this.#timer = setInterval(run, everyMs);
  }

  /** Stops ticking and waits for a run under way. */
  async stop() {
    clearInterval(this.#timer);
    this.#timer = undefined;
    await this.#running?.catch(() => {});
  }

  async #tick(): Promise<JobRun[]> {
    const now = this.#now();
    const due = await this.db.selectFrom("scheduled_jobs")
      .select(["id", "projectId", "interval", "isSoft", "nextRunAt"])
      .where("isActive", "=", 1).where("isDeleted", "=", 0)
      .where("nextRunAt", "<=", new Date(now).toISOString())
      .orderBy("nextRunAt").limit(100).execute();
    const runs: JobRun[] = [];
    for (const job of due) {
      const lease = await this.#claim(job, now);
      if (!lease) continue;
      runs.push(await this.#run(job, lease, now));
    }
    return runs;
  }

  /** Takes the job for this run (its lease end), or null when another scheduler has it. */
  async #claim(job: Due, now: number): Promise<string | null> {
    const lease = new Date(now + (this.opts.leaseMs ?? 10 * MINUTE)).toISOString();
    const r = await this.db.updateTable("scheduled_jobs").set({ nextRunAt: lease })
      .where("id", "=", job.id).where("nextRunAt", "=", job.nextRunAt)
      .where("isActive", "=", 1).where("isDeleted", "=", 0).executeTakeFirst();
    return Number(r.numUpdatedRows ?? 0) === 1 ? lease : null;
  }

  async #run(job: Due, lease: string, now: number): Promise<JobRun> {
    let result: { status: "ok" | "error"; outcome: string; projectCode: string };
    try {
      result = job.isSoft ? await this.#soft(job, now) : await this.#check(job, now);
    } catch (e) {
      const message = e instanceof Error ? e.message : String(e);
      this.log.error("scheduled job failed", { id: job.id, error: message });
      result = { status: "error", outcome: message.slice(0, 500), projectCode: "" };
    }
    const at = new Date(now).toISOString();
    // the next run is one interval after this one (the interval as it is now: it may have been edited)
    const fresh = await this.db.selectFrom("scheduled_jobs").select("interval").where("id", "=", job.id)
      .executeTakeFirst();
    const r = await this.db.updateTable("scheduled_jobs").set((eb) => ({
      lastRunAt: at,
      lastStatus: result.status,
      lastOutcome: result.outcome,
      runs: eb("runs", "+", 1),
      nextRunAt: new Date(now + (fresh?.interval ?? job.interval) * MINUTE).toISOString(),
    })).where("id", "=", job.id).where("nextRunAt", "=", lease).executeTakeFirst();
    if (Number(r.numUpdatedRows ?? 0) !== 1) {
      this.log.warn("scheduled job run outlived its lease, or the job was rescheduled meanwhile", {
        id: job.id,
      });
    }
    return { jobId: job.id, projectCode: result.projectCode, status: result.status, outcome: result.outcome };
  }

  /** Pauses a Live project at its sample size, closes one past its end date; logs what it did. */
  async #check(job: Due, now: number) {
    const at = new Date(now);
    const done = await this.db.transaction().execute(async (trx) => {
      const p = await trx.selectFrom("projects").selectAll().where("id", "=", job.projectId)
        .where("isDeleted", "=", 0).executeTakeFirst();
      if (!p) {
        return {
          status: "error" as const,
          outcome: "The project no longer exists",
          projectCode: "",
          ids: [],
        };
      }
      const completes = p.projectType === PROJECT_TYPE.GROUP
        ? Number(
          (await trx.selectFrom("projects").select((eb) => eb.fn.sum<number>("complete").as("n"))
            .where("parentProjectId", "=", p.id).where("isDeleted", "=", 0).executeTakeFirst())?.n ?? 0,
        )
        : p.complete;
      const today = at.toISOString().slice(0, 10);
      const pastEnd = !!p.endDate && p.endDate.slice(0, 10) < today;
      const base = { projectCode: p.projectCode };
      const change = async (to: number, why: string) => {
        try {
          const ids = await applyStatus({ db: trx, actor: SCHEDULER_ACTOR, now: () => now }, {
            project: p,
            to,
            poNumber: undefined,
          });
          const outcome = `${to === PROJECT_STATUS.CLOSED ? "Closed" : "Paused"} ${p.projectCode}: ${why}`;
          await writeLog(trx, SCHEDULER_ACTOR, { activity: outcome, module: MODULE, recordId: job.id }, at);
          return { ...base, status: "ok" as const, outcome, ids };
        } catch (e) {
          if (!(e instanceof DomainError)) throw e;
          const outcome = `Could not ${
            to === PROJECT_STATUS.CLOSED ? "close" : "pause"
          } ${p.projectCode} (${why}): ${e.message}`;
          await writeLog(trx, SCHEDULER_ACTOR, { activity: outcome, module: MODULE, recordId: job.id }, at);
          return { ...base, status: "error" as const, outcome, ids: [] };
        }
      };
      if (pastEnd && !isFinishedStatus(p.projectStatus)) {
        return await change(PROJECT_STATUS.CLOSED, `its end date ${p.endDate!.slice(0, 10)} has passed`);
      }
      if (p.projectStatus === PROJECT_STATUS.LIVE && p.sampleSize > 0 && completes >= p.sampleSize) {
        return await change(
          PROJECT_STATUS.PAUSED,
          `${completes} completes reached the sample size ${p.sampleSize}`,
        );
      }
      const quota = p.sampleSize > 0 ? ` / ${p.sampleSize}` : "";
      return {
        ...base,
        status: "ok" as const,
        outcome: `No change: ${projectStatusLabel(p.projectStatus)}, ${completes}${quota} completes`,
        ids: [],
      };
    });
    // after commit: the router reads the new status
    if (done.ids.length) this.opts.changes.project(...done.ids);
    return done;
  }

  /** E-mails the progress report to the project's manager; changes nothing. */
  async #soft(job: Due, now: number) {
    const data = await progressData(this.db, job.projectId, now);
    const base = { projectCode: data.projectCode };
    if (!data.managerEmail) {
      return {
        ...base,
        status: "error" as const,
        outcome: `${data.projectCode} has no manager with an e-mail`,
      };
    }
    const png = await progressPng(data);
    const at = new Date(now);
    const outcome = `Queued the progress report of ${data.projectCode} for ${data.managerEmail}`;
    await this.db.transaction().execute(async (trx) => {
      await enqueueMails(trx, [{
        to: data.managerEmail,
        subject: `${data.projectCode} progress report`,
        html:
          `<p>Hello ${escapeHtml(data.managerName || "")},</p><p>The progress report of ${
            escapeHtml(data.projectCode)
          } (${
            escapeHtml(data.projectName)
          }) is attached: ${data.complete} of ${data.sampleSize} completes, ` +
          `${data.clicked} clicks.</p>`,
        module: MODULE,
        recordId: job.id,
        attachments: [{
          filename: progressFileName(data),
          contentType: "image/png",
          content: Buffer.from(png).toString("base64"),
        }],
      }], at);
      await writeLog(trx, SCHEDULER_ACTOR, { activity: outcome, module: MODULE, recordId: job.id }, at);
    });
    this.opts.onMail?.();
    return { ...base, status: "ok" as const, outcome };
  }
}
