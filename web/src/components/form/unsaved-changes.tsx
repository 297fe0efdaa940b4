/**
 * Unsaved changes are not lost silently: while a form is dirty, leaving its page inside the app (a
 * menu link, Cancel, the back link, another record) asks first, and closing or reloading the tab
 * gets the browser's own prompt. A page with several forms (the child project tabs) wraps them in
 * one `UnsavedChangesScope`, since a router has a single blocker: its forms report to the scope,
 * which asks once for all of them.
 */
import * as React from "react";
import { type BlockerFunction, useBlocker } from "react-router";
import { leavesForm, UNSAVED_TEXT } from "./unsaved.ts";

// loaded when first needed: the sign-in form uses this kit and should not carry the dialog code
const ConfirmDialog = React.lazy(() =>
  import("../ui/dialog.tsx").then((m) => ({ default: m.ConfirmDialog }))
);

export { UNSAVED_TEXT };

/**
 * Blocks in-app navigation to another page and sets `beforeunload` while `isDirty`; returns the
 * "Leave without saving?" dialog (Stay / Leave) to render. Only one per page: forms that may share
 * a page use `UnsavedChangesGuard` (or `<Form guardUnsaved>`) instead, which respect a scope.
 */
export function useUnsavedChangesGuard(isDirty: boolean): React.ReactNode {
  const shouldBlock = React.useCallback<BlockerFunction>(
    ({ currentLocation, nextLocation }) => isDirty && leavesForm(currentLocation, nextLocation),
    [isDirty],
  );
  const blocker = useBlocker(shouldBlock);

  React.useEffect(() => {
    if (!isDirty) return;
    const onBeforeUnload = (e: BeforeUnloadEvent) => {
      e.preventDefault();
      // older browsers show the prompt only when returnValue is set
      e.returnValue = "";
    };
    globalThis.addEventListener("beforeunload", onBeforeUnload);
    return () => globalThis.removeEventListener("beforeunload", onBeforeUnload);
  }, [isDirty]);

  // saved (or put back) while the question was open: nothing to ask any more
  React.useEffect(() => {
    if (blocker.state === "blocked" && !isDirty) blocker.reset();
  }, [blocker, isDirty]);

  if (blocker.state !== "blocked") return null;
  return (
    <React.Suspense fallback={null}>
      <ConfirmDialog
        open
        onOpenChange={(open) => {
          if (!open && blocker.state === "blocked") blocker.reset();
        }}
        title={UNSAVED_TEXT.title}
        description={UNSAVED_TEXT.description}
        cancelLabel={UNSAVED_TEXT.stay}
        confirmLabel={UNSAVED_TEXT.leave}
        onConfirm={() => {
          if (blocker.state === "blocked") blocker.proceed();
        }}
      />
    </React.Suspense>
  );
}

type Report = (id: string, dirty: boolean) => void;
const ScopeContext = React.createContext<Report | null>(null);

/** One guard for every form inside (the tabs of a page): it asks when any of them is dirty. */
export function UnsavedChangesScope({ children }: { children: React.ReactNode }) {
  const [dirty, setDirty] = React.useState<ReadonlySet<string>>(() => new Set());
  const report = React.useCallback<Report>((id, isDirty) => {
    setDirty((prev) => {
      if (prev.has(id) === isDirty) return prev;
      const next = new Set(prev);
      if (isDirty) next.add(id);
      else next.delete(id);
      return next;
    });
  }, []);
  const dialog = useUnsavedChangesGuard(dirty.size > 0);
  return (
    <ScopeContext.Provider value={report}>
      {children}
      {dialog}
    </ScopeContext.Provider>
  );
}

/** Guards while `when` is true: reports to the enclosing scope if there is one, else guards itself. */
export function UnsavedChangesGuard({ when }: { when: boolean }) {
  const report = React.useContext(ScopeContext);
  return report ? <ScopedReport when={when} report={report} /> : <OwnGuard when={when} />;
}

function ScopedReport({ when, report }: { when: boolean; report: Report }) {
  const id = React.useId();
  React.useEffect(() => report(id, when), [id, when, report]);
  React.useEffect(() => () => report(id, false), [id, report]);
  return null;
}

function OwnGuard({ when }: { when: boolean }) {
  return <>{useUnsavedChangesGuard(when)}</>;
}
