/**
 * The drawer of a grid's selected rows: fixed to the bottom of the screen over the page, holding
 * only what the screen puts in it (no frame of its own around a frame), with a spacer under the grid
 * as tall as the drawer so the last rows and the pager can still be scrolled into view above it.
 */
import * as React from "react";

export function SelectionRegion({ children }: { children: React.ReactNode }) {
  const drawer = React.useRef<HTMLDivElement>(null);
  const [height, setHeight] = React.useState(0);
  React.useLayoutEffect(() => {
    const el = drawer.current;
    if (!el) return;
    const measure = () => setHeight(el.offsetHeight);
    measure();
    const ro = new ResizeObserver(measure);
    ro.observe(el);
    return () => ro.disconnect();
  }, []);
  return (
    <>
      <div aria-hidden="true" style={{ height }} data-testid="selection-spacer" />
      <div
        ref={drawer}
        role="region"
        aria-label="Selected rows"
        className="fixed inset-x-0 bottom-0 z-40 border-t bg-card shadow-[0_-8px_24px_-12px_rgb(15_23_42/0.25)]"
      >
        {children}
      </div>
    </>
  );
}
