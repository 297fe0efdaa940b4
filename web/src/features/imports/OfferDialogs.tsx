/** The quota and qualification dialogs of an offer, with their drill-downs and exports (Quotas, Questions). */
import { useState } from "react";
import { useQuery } from "@tanstack/react-query";
import { Download } from "lucide-react";
import { api, callKey } from "../../lib/api.ts";
import { saveBlob } from "../../lib/download.ts";
import { Button } from "../../components/ui/button.tsx";
import { Dialog, DialogContent, DialogHeader, DialogTitle } from "../../components/ui/dialog.tsx";
import { StaticTable, TABLE_LOOKS } from "../../components/table/StaticTable.tsx";
import {
  externalOfferQuotas,
  logitQuotas,
  mrktQuotas,
  type OfferQuota,
  tolunaQuestions,
  tolunaQuotaDetails,
} from "../../../../shared/api/providers.ts";
import { csvBlob, type ExternalOffer } from "./imports.ts";

const drill = "max-h-[400px] w-full max-w-[1160px] overflow-auto rounded-md border";

function ExportButton({ onClick }: { onClick: () => void }) {
  return (
    <Button variant="outline" size="sm" onClick={onClick}>
      <Download /> Export
    </Button>
  );
}

/** `external`: opened from Projects External (any provider's quotas through its own call, no Toluna drill-down). */
type DialogProps = { offer: ExternalOffer; onClose: () => void; external?: boolean };

export function QuotasDialog({ offer, onClose, external = false }: DialogProps) {
  const [tab, setTab] = useState<"Quotas" | "Questions">("Quotas");
  const [detail, setDetail] = useState<string | null>(null);
  const remote = offer.provider === "logit" || offer.provider === "mrkt";
  const call = external ? externalOfferQuotas : offer.provider === "logit" ? logitQuotas : mrktQuotas;
  const loaded = useQuery({
    queryKey: callKey(call, `${offer.provider}:${offer.surveyId}`),
    enabled: remote,
    queryFn: async () =>
      (external
        ? await api(externalOfferQuotas, { body: { provider: offer.provider, surveyId: offer.surveyId } })
        : offer.provider === "logit"
        ? await api(logitQuotas, { body: { filters: {}, projectId: offer.surveyId } })
        : await api(mrktQuotas, { body: { filters: {}, surveyId: offer.surveyId } })).result,
  });
  const details = useQuery({
    queryKey: callKey(tolunaQuotaDetails, detail),
    enabled: !!detail,
    queryFn: async () => (await api(tolunaQuotaDetails, { body: { filters: {}, quotaId: detail! } })).result,
  });
  const quotas: OfferQuota[] = remote ? loaded.data ?? [] : offer.quotas;
  const questions = [...new Map(quotas.flatMap((q) => q.conditions).map((c) => [c.questionId, c])).values()];
  const exportQuotas = () =>
    saveBlob(
      csvBlob(
        ["QuotaID", "Required", "Remaining", "Completes", "Conditions"],
        quotas.map((q) => [
          q.quotaId,
          q.required,
          q.remaining,
          q.completes,
          q.conditions.map((c) => `${c.questionId}: ${c.excluded ? "not " : ""}${c.answers.join("|")}`).join(
            "; ",
          ),
        ]),
      ),
      tab === "Quotas" ? "Quotas.csv" : "Questions.csv",
    );
  return (
    <Dialog open onOpenChange={(o) => !o && onClose()}>
      <DialogContent className="max-w-5xl" aria-describedby={undefined}>
        <DialogHeader>
          <DialogTitle>Quotas of {offer.title} ({offer.surveyId})</DialogTitle>
        </DialogHeader>
        <div className="flex items-center gap-2">
          {(["Quotas", "Questions"] as const).map((t) => (
            <Button
              key={t}
              size="sm"
              variant={tab === t ? "default" : "outline"}
              onClick={() => setTab(t)}
            >
              {t}
            </Button>
          ))}
          <span className="flex-1" />
          <ExportButton onClick={exportQuotas} />
        </div>
        {remote && loaded.isLoading ? <p className="text-sm text-muted-foreground">Loading quotas…</p> : null}
        {!quotas.length && !loaded.isLoading
          ? <p className="text-sm text-muted-foreground">No quotas</p>
          : null}
        <div className={drill} data-testid="quota-drill">
          {tab === "Quotas"
            ? (
              <ol className="flex flex-col gap-3 p-3">
                {quotas.map((q, i) => (
                  <li key={q.quotaId} className="text-sm">
                    <div className="font-medium">
                      {i + 1}. Quota {q.quotaId}: {q.remaining} of {q.required} remaining ({q.completes}{" "}
                      completes)
                      {offer.provider === "toluna" && q.parentQuotaId && !external
                        ? (
                          <Button
                            className="ml-2"
                            size="sm"
                            variant="link"
                            onClick={() => setDetail(q.parentQuotaId)}
                          >
                            Quota {q.parentQuotaId} details
                          </Button>
                        )
                        : null}
                    </div>
                    <ol className="ml-5 list-decimal text-muted-foreground">
                      {q.conditions.map((c) => (
                        <li key={c.questionId}>
                          Question {c.questionId} ({c.questionName}): {c.excluded ? "any but " : ""}
                          {c.answers.join(", ")}
                        </li>
                      ))}
                    </ol>
                  </li>
                ))}
              </ol>
            )
            : (
              <StaticTable
                look={TABLE_LOOKS.compact}
                rows={questions}
                rowKey={(c) => c.questionId}
                columns={[
                  { header: "QuestionID", cell: (c) => c.questionId },
                  { header: "Question", cell: (c) => c.questionName },
                  { header: "Options", cell: (c) => c.answers.join(", ") },
                ]}
              />
            )}
        </div>
        {detail && details.data
          ? (
            <p className="text-sm" data-testid="toluna-quota-details">
              Quota ID {details.data.quotaId}: required completes{" "}
              {details.data.completesRequired}, remaining completes {details.data.completesRemaining}
            </p>
          )
          : null}
      </DialogContent>
    </Dialog>
  );
}

export function QualificationsDialog({ offer, onClose, external = false }: DialogProps) {
  const [more, setMore] = useState(false);
  const refs = useQuery({
    queryKey: callKey(tolunaQuestions, offer.surveyId),
    enabled: more,
    queryFn: async () =>
      (await api(tolunaQuestions, {
        body: { filters: {}, questionId: offer.qualifications.map((q) => q.questionId) },
      })).result,
  });
  const exportQuestions = () =>
    saveBlob(
      csvBlob(
        ["QuestionID", "Question", "AnswerIDs", "Answers", "IsRoutable"],
        offer.qualifications.map((
          q,
        ) => [q.questionId, q.name, q.answerIds.join("|"), q.answers.join("|"), q.isRoutable]),
      ),
      "Questions.csv",
    );
  return (
    <Dialog open onOpenChange={(o) => !o && onClose()}>
      <DialogContent className="max-w-5xl" aria-describedby={undefined}>
        <DialogHeader>
          <DialogTitle>Qualifications of {offer.title} ({offer.surveyId})</DialogTitle>
        </DialogHeader>
        <div className="flex items-center gap-2">
          {offer.provider === "toluna" && !external
            ? <Button size="sm" variant="outline" onClick={() => setMore(true)}>Question details</Button>
            : null}
          <span className="flex-1" />
          <ExportButton onClick={exportQuestions} />
        </div>
        <div className={drill} data-testid="qualification-drill">
          <StaticTable
            look={TABLE_LOOKS.compact}
            rowClassName="align-top"
            rows={offer.qualifications}
            rowKey={(q) => q.questionId}
            columns={[
              { header: "QuestionID", cell: (q) => q.questionId },
              { header: "Question", cell: (q) => q.name },
              {
                header: "AnswerIDs",
                cell: (q) =>
                  q.answerIds.map((a, i) => (
                    <div key={a}>
                      {q.answers[i] && q.answers[i] !== a
                        ? (
                          <>
                            {q.answers[i]} <span className="text-muted-foreground">({a})</span>
                          </>
                        )
                        : a}
                    </div>
                  )),
              },
              { header: "IsRoutable", cell: (q) => q.isRoutable ? "true" : "false" },
            ]}
          />
        </div>
        {more
          ? (
            <div className={drill} data-testid="toluna-questions">
              {refs.isLoading ? <p className="p-2 text-sm text-muted-foreground">Loading…</p> : null}
              <StaticTable
                look={TABLE_LOOKS.compact}
                rowClassName="align-top"
                rows={refs.data ?? []}
                rowKey={(q) => q.QuestionID}
                columns={[
                  { header: "InternalName", cell: (q) => q.InternalName },
                  {
                    header: "TranslatedAnswers",
                    cell: (q) => q.TranslatedAnswers.map((t) => t.Translation).join(", "),
                  },
                  { header: "IsRoutable", cell: (q) => q.IsRoutable ? "true" : "false" },
                ]}
              />
            </div>
          )
          : null}
      </DialogContent>
    </Dialog>
  );
}
