/**
 * Notifications (part 1, 2.2): top-right, one at a time, hidden after 4000 ms. A new notice replaces
 * the one on screen. A tiny store instead of a toast library keeps the sign-in page light.
 */
export type NoticeKind = "success" | "error" | "info" | "warning";
export type Notice = { id: number; kind: NoticeKind; message: string };

type Listener = () => void;
let current: Notice | null = null;
let seq = 0;
const listeners = new Set<Listener>();

function emit() {
  for (const l of listeners) l();
}

export const noticeStore = {
  get: () => current,
  subscribe(listener: Listener) {
    listeners.add(listener);
    return () => void listeners.delete(listener);
  },
  dismiss(id?: number) {
    if (current && (id === undefined || current.id === id)) {
      current = null;
      emit();
    }
  },
};

function show(kind: NoticeKind, message: string) {
  if (!message) return;
  current = { id: ++seq, kind, message };
  emit();
}

export const notify = {
  success: (message: string) => show("success", message),
  error: (message: string) => show("error", message),
  info: (message: string) => show("info", message),
  warning: (message: string) => show("warning", message),
};
