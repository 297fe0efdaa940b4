/** The quota and qualification dialogs of an offer, with their drill-downs and exports (Quotas, Questions). */
import { useState } from "react";
import { useQuery } from "@tanstack/react-query";
import { Download } from "lucide-react";
import { api, callKey } from "../../lib/api.ts";
import { saveBlob } from "../../lib/download.ts";
import { Button } from "../../components/ui/button.tsx";
import { Dialog, DialogContent, DialogHeader, DialogTitle } from "../../components/ui/dialog.tsx";
import {
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

export function QuotasDialog({ offer, onClose }: { offer: ExternalOffer; onClose: () => void }) {
  const [tab, setTab] = useState<"Quotas" | "Questions">("Quotas");
  const [detail, setDetail] = useState<string | null>(null);
  const remote = offer.provider === "logit" || offer.provider === "mrkt";
  const loaded = useQuery({
    queryKey: callKey(offer.provider === "logit" ? logitQuotas : mrktQuotas, offer.surveyId),
    enabled: remote,
    queryFn: async () =>
      (offer.provider === "logit"
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
                      {offer.provider === "toluna" && q.parentQuotaId
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
              <table className="w-full text-sm">
                <thead>
                  <tr className="text-left">
                    <th className="p-2">QuestionID</th>
                    <th className="p-2">Question</th>
                    <th className="p-2">Options</th>
                  </tr>
                </thead>
                <tbody>
                  {questions.map((c) => (
                    <tr key={c.questionId} className="border-t">
                      <td className="p-2">{c.questionId}</td>
                      <td className="p-2">{c.questionName}</td>
                      <td className="p-2">{c.answers.join(", ")}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
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

export function QualificationsDialog({ offer, onClose }: { offer: ExternalOffer; onClose: () => void }) {
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
          {offer.provider === "toluna"
            ? <Button size="sm" variant="outline" onClick={() => setMore(true)}>Question details</Button>
            : null}
          <span className="flex-1" />
          <ExportButton onClick={exportQuestions} />
        </div>
        <div className={drill} data-testid="qualification-drill">
          <table className="w-full text-sm">
            <thead>
              <tr className="text-left">
                <th className="p-2">QuestionID</th>
                <th className="p-2">Question</th>
                <th className="p-2">AnswerIDs</th>
                <th className="p-2">IsRoutable</th>
              </tr>
            </thead>
            <tbody>
              {offer.qualifications.map((q) => (
                <tr key={q.questionId} className="border-t align-top">
                  <td className="p-2">{q.questionId}</td>
                  <td className="p-2">{q.name}</td>
                  <td className="p-2">
                    {q.answerIds.map((a, i) => (
                      <div key={a}>{a === q.answers[i] ? a : `${a} (${q.answers[i]})`}</div>
                    ))}
                  </td>
                  <td className="p-2">{q.isRoutable ? "true" : "false"}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        {more
          ? (
            <div className={drill} data-testid="toluna-questions">
              {refs.isLoading ? <p className="p-2 text-sm text-muted-foreground">Loading…</p> : null}
              <table className="w-full text-sm">
                <thead>
                  <tr className="text-left">
                    <th className="p-2">InternalName</th>
                    <th className="p-2">TranslatedAnswers</th>
                    <th className="p-2">IsRoutable</th>
                  </tr>
                </thead>
                <tbody>
                  {(refs.data ?? []).map((q) => (
                    <tr key={q.QuestionID} className="border-t align-top">
                      <td className="p-2">{q.InternalName}</td>
                      <td className="p-2">{q.TranslatedAnswers.map((t) => t.Translation).join(", ")}</td>
                      <td className="p-2">{q.IsRoutable ? "true" : "false"}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )
          : null}
      </DialogContent>
    </Dialog>
  );
}
