/** Free-text search: applies 500 ms after the last keystroke (or at once on Enter). */
import * as React from "react";
import { Search, X } from "lucide-react";
import { Input } from "../ui/input.tsx";
import { TIMING } from "../../lib/timing.ts";

export function SearchInput({
  value,
  onSearch,
  placeholder = "Search",
  hint,
}: {
  value: string;
  onSearch: (text: string) => void;
  placeholder?: string;
  /** What the search looks in, as a tooltip (the placeholder stays short enough to show whole). */
  hint?: string;
}) {
  const [text, setText] = React.useState(value);
  const latest = React.useRef(value);

  // follow the URL when it changes from outside (reset, back button)
  React.useEffect(() => {
    if (value !== latest.current) {
      latest.current = value;
      setText(value);
    }
  }, [value]);

  React.useEffect(() => {
    if (text === latest.current) return;
    const t = setTimeout(() => {
      latest.current = text;
      onSearch(text);
    }, TIMING.searchDebounceMs);
    return () => clearTimeout(t);
  }, [text, onSearch]);

  return (
    <div className="relative w-full sm:w-72">
      <Search className="pointer-events-none absolute left-3 top-1/2 size-4 -translate-y-1/2 text-muted-foreground" />
      <Input
        type="search"
        role="searchbox"
        aria-label={placeholder}
        placeholder={placeholder}
        title={hint}
        value={text}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === "Enter") {
            e.preventDefault();
            latest.current = text;
            onSearch(text);
          }
        }}
        className="pl-9 pr-8 [&::-webkit-search-cancel-button]:hidden"
      />
      {text
        ? (
          <button
            type="button"
            aria-label="Clear search"
            className="absolute inset-y-0 right-0 flex w-8 cursor-pointer items-center justify-center rounded-r-md text-muted-foreground hover:text-foreground focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-inset"
            onClick={() => {
              setText("");
              latest.current = "";
              onSearch("");
            }}
          >
            <X className="size-3.5" />
          </button>
        )
        : null}
    </div>
  );
}
