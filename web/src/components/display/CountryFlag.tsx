/**
 * A country's flag and name. The API sends the flag as an emoji; Windows (and browsers without a
 * colour emoji font) show flag emojis as two loose letters or boxes, so where the browser cannot draw
 * one we show the ISO code in a small badge instead.
 */
let flagSupport: boolean | null = null;

/** Whether this browser draws flag emojis in colour (checked once, on a tiny canvas). */
function canDrawFlags(): boolean {
  if (flagSupport !== null) return flagSupport;
  try {
    const canvas = document.createElement("canvas");
    canvas.width = canvas.height = 20;
    const ctx = canvas.getContext("2d", { willReadFrequently: true });
    if (!ctx) return (flagSupport = false);
    ctx.textBaseline = "top";
    ctx.font = "16px sans-serif";
    ctx.fillText("\u{1F1FA}\u{1F1F8}", 0, 0); // US
    const data = ctx.getImageData(0, 0, 20, 20).data;
    let coloured = false;
    for (let i = 0; i < data.length && !coloured; i += 4) {
      const [r, g, b, a] = [data[i], data[i + 1], data[i + 2], data[i + 3]];
      coloured = a > 0 && (Math.abs(r - g) > 30 || Math.abs(g - b) > 30 || Math.abs(r - b) > 30);
    }
    flagSupport = coloured;
  } catch {
    flagSupport = false;
  }
  return flagSupport;
}

export function CountryFlag({ flag, code }: { flag?: string; code?: string }) {
  if (flag && canDrawFlags()) {
    return <span className="text-base leading-none" aria-hidden="true">{flag}</span>;
  }
  if (!code) return null;
  return (
    <span
      className="inline-grid h-4 min-w-6 place-items-center rounded-[3px] border bg-muted px-1 text-[10px] font-semibold leading-none text-muted-foreground"
      aria-hidden="true"
    >
      {code}
    </span>
  );
}

/** Flag and country name in one line (list cells). */
export function CountryName({ flag, code, name }: { flag?: string; code?: string; name: string }) {
  return (
    <span className="inline-flex items-center gap-2 whitespace-nowrap">
      <CountryFlag flag={flag} code={code} />
      {name}
    </span>
  );
}
