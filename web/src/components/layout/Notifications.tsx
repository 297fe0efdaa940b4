import { useEffect, useSyncExternalStore } from "react";
import { CircleAlert, CircleCheck, Info, TriangleAlert, X } from "lucide-react";
import { type NoticeKind, noticeStore } from "../../lib/notify.ts";
import { TIMING } from "../../lib/timing.ts";
import { cn } from "../../lib/utils.ts";

const STYLE: Record<NoticeKind, { icon: typeof Info; className: string }> = {
  success: { icon: CircleCheck, className: "border-emerald-200 bg-emerald-50 text-emerald-900" },
  error: { icon: CircleAlert, className: "border-red-200 bg-red-50 text-red-900" },
  warning: { icon: TriangleAlert, className: "border-amber-200 bg-amber-50 text-amber-900" },
  info: { icon: Info, className: "border-sky-200 bg-sky-50 text-sky-900" },
};

/** The notification bar: one notice at a time, top-right, auto-hiding after 4000 ms. */
export function Notifications() {
  const notice = useSyncExternalStore(noticeStore.subscribe, noticeStore.get, noticeStore.get);

  useEffect(() => {
    if (!notice) return;
    const t = setTimeout(() => noticeStore.dismiss(notice.id), TIMING.toastMs);
    return () => clearTimeout(t);
  }, [notice]);

  return (
    <div className="pointer-events-none fixed right-4 top-[4.25rem] z-[100] flex w-[min(24rem,calc(100vw-2rem))] flex-col">
      <div aria-live="polite" role="status" className="sr-only">
        {notice && notice.kind !== "error" ? notice.message : ""}
      </div>
      <div aria-live="assertive" role="alert" className="sr-only">
        {notice?.kind === "error" ? notice.message : ""}
      </div>
      {notice
        ? (() => {
          const { icon: Icon, className } = STYLE[notice.kind];
          return (
            <div
              key={notice.id}
              data-notice={notice.kind}
              className={cn(
                "pointer-events-auto flex items-start gap-3 rounded-lg border px-4 py-3 text-sm shadow-lg animate-[notice-in_160ms_ease-out]",
                className,
              )}
            >
              <Icon className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
              <p className="flex-1 break-words font-medium" data-testid="notice">{notice.message}</p>
              <button
                type="button"
                onClick={() => noticeStore.dismiss(notice.id)}
                className="-mr-1 rounded p-0.5 opacity-60 hover:opacity-100 focus-visible:ring-2 focus-visible:ring-ring"
                aria-label="Dismiss notification"
              >
                <X className="size-4" />
              </button>
            </div>
          );
        })()
        : null}
    </div>
  );
}
