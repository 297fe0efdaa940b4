/**
 * The rich-text editor of the form kit (TipTap 3 over ProseMirror): HTML in, HTML out. It is heavy
 * (about 100 kB gzipped), so nothing imports it statically: `RichTextField` loads it on first use and
 * the sign-in page never pays for it. Used by e-mail bodies, project specs and questionnaires.
 */
import * as React from "react";
import { EditorContent, useEditor, useEditorState } from "@tiptap/react";
import StarterKit from "@tiptap/starter-kit";
import { Placeholder } from "@tiptap/extensions";
import {
  Bold,
  Heading2,
  Italic,
  Link2,
  List,
  ListOrdered,
  Quote,
  Redo2,
  Strikethrough,
  Underline,
  Undo2,
} from "lucide-react";
import { Popover, PopoverAnchor, PopoverContent } from "../ui/popover.tsx";
import { Input } from "../ui/input.tsx";
import { Button } from "../ui/button.tsx";
import { cn } from "../../lib/utils.ts";

export type RichTextEditorProps = {
  id?: string;
  value: string;
  onChange: (html: string) => void;
  onBlur?: () => void;
  placeholder?: string;
  /** Height of the writing area in px (the spec's editors are 500 high). */
  minHeight?: number;
  invalid?: boolean;
  describedBy?: string;
  ariaLabel?: string;
  disabled?: boolean;
};

/** An empty document as the editor writes it: treated as "" so required checks see nothing typed. */
const EMPTY_DOC = /^(<p>(<br\s*\/?>)?<\/p>)*$/i;

export default function RichTextEditor({
  id,
  value,
  onChange,
  onBlur,
  placeholder,
  minHeight = 200,
  invalid,
  describedBy,
  ariaLabel,
  disabled,
}: RichTextEditorProps) {
  const onChangeRef = React.useRef(onChange);
  onChangeRef.current = onChange;
  const onBlurRef = React.useRef(onBlur);
  onBlurRef.current = onBlur;

  const editor = useEditor({
    extensions: [
      StarterKit.configure({
        heading: { levels: [2, 3] },
        link: { openOnClick: false, autolink: true, defaultProtocol: "https" },
      }),
      Placeholder.configure({ placeholder: placeholder ?? "" }),
    ],
    content: value || "",
    editable: !disabled,
    shouldRerenderOnTransaction: false,
    editorProps: {
      attributes: {
        ...(id ? { id } : {}),
        role: "textbox",
        "aria-multiline": "true",
        ...(ariaLabel ? { "aria-label": ariaLabel } : {}),
        ...(describedBy ? { "aria-describedby": describedBy } : {}),
        ...(invalid ? { "aria-invalid": "true" } : {}),
        class: "rich-text-content px-3 py-2 outline-none",
        style: `min-height:${minHeight}px`,
      },
    },
    onUpdate: ({ editor }) => {
      const html = editor.getHTML();
      onChangeRef.current(EMPTY_DOC.test(html) ? "" : html);
    },
    onBlur: () => onBlurRef.current?.(),
  });

  // the form may reset the value (a record loaded, a dialog reopened): follow it. TipTap destroys an
  // editor that is not mounted within 1 ms of its creation (a slow, time-sliced first render) and
  // hands out a new one on the next render: skip the destroyed one.
  React.useEffect(() => {
    if (!editor || editor.isDestroyed) return;
    const current = editor.getHTML();
    const normalized = EMPTY_DOC.test(current) ? "" : current;
    if ((value || "") !== normalized) editor.commands.setContent(value || "", { emitUpdate: false });
  }, [editor, value]);

  // keep the ARIA state of the writing area in step with validation
  React.useEffect(() => {
    if (!editor || editor.isDestroyed) return;
    // setEditable emits an update by default, which would count as typing
    if (editor.isEditable === !!disabled) editor.setEditable(!disabled, false);
    const dom = editor.view.dom;
    if (invalid) dom.setAttribute("aria-invalid", "true");
    else dom.removeAttribute("aria-invalid");
    if (describedBy) dom.setAttribute("aria-describedby", describedBy);
    else dom.removeAttribute("aria-describedby");
  }, [editor, invalid, describedBy, disabled]);

  return (
    <div
      className={cn(
        "flex flex-col overflow-hidden rounded-md border border-input bg-card shadow-xs transition-colors focus-within:border-ring focus-within:ring-2 focus-within:ring-ring/30",
        invalid && "border-destructive ring-destructive/20",
        disabled && "opacity-60",
      )}
    >
      {editor ? <Toolbar editor={editor} disabled={disabled} /> : null}
      <div className="max-h-[70vh] overflow-y-auto" style={{ minHeight }}>
        <EditorContent editor={editor} />
      </div>
    </div>
  );
}

type EditorT = NonNullable<ReturnType<typeof useEditor>>;

function Toolbar({ editor, disabled }: { editor: EditorT; disabled?: boolean }) {
  const state = useEditorState({
    editor,
    selector: ({ editor: e }) => ({
      bold: e.isActive("bold"),
      italic: e.isActive("italic"),
      underline: e.isActive("underline"),
      strike: e.isActive("strike"),
      h2: e.isActive("heading", { level: 2 }),
      bullet: e.isActive("bulletList"),
      ordered: e.isActive("orderedList"),
      quote: e.isActive("blockquote"),
      link: e.isActive("link"),
      canUndo: e.can().undo(),
      canRedo: e.can().redo(),
    }),
  });
  const chain = () => editor.chain().focus();
  return (
    <div
      role="toolbar"
      aria-label="Formatting"
      className="flex flex-wrap items-center gap-0.5 border-b bg-muted/40 px-1.5 py-1"
    >
      <Tool label="Bold" active={state.bold} disabled={disabled} onClick={() => chain().toggleBold().run()}>
        <Bold />
      </Tool>
      <Tool
        label="Italic"
        active={state.italic}
        disabled={disabled}
        onClick={() => chain().toggleItalic().run()}
      >
        <Italic />
      </Tool>
      <Tool
        label="Underline"
        active={state.underline}
        disabled={disabled}
        onClick={() => chain().toggleUnderline().run()}
      >
        <Underline />
      </Tool>
      <Tool
        label="Strikethrough"
        active={state.strike}
        disabled={disabled}
        onClick={() => chain().toggleStrike().run()}
      >
        <Strikethrough />
      </Tool>
      <Separator />
      <Tool
        label="Heading"
        active={state.h2}
        disabled={disabled}
        onClick={() => chain().toggleHeading({ level: 2 }).run()}
      >
        <Heading2 />
      </Tool>
      <Tool
        label="Bulleted list"
        active={state.bullet}
        disabled={disabled}
        onClick={() => chain().toggleBulletList().run()}
      >
        <List />
      </Tool>
      <Tool
        label="Numbered list"
        active={state.ordered}
        disabled={disabled}
        onClick={() => chain().toggleOrderedList().run()}
      >
        <ListOrdered />
      </Tool>
      <Tool
        label="Quote"
        active={state.quote}
        disabled={disabled}
        onClick={() => chain().toggleBlockquote().run()}
      >
        <Quote />
      </Tool>
      <LinkTool editor={editor} active={state.link} disabled={disabled} />
      <Separator />
      <Tool label="Undo" disabled={disabled || !state.canUndo} onClick={() => chain().undo().run()}>
        <Undo2 />
      </Tool>
      <Tool label="Redo" disabled={disabled || !state.canRedo} onClick={() => chain().redo().run()}>
        <Redo2 />
      </Tool>
    </div>
  );
}

function Separator() {
  return <span className="mx-1 h-5 w-px bg-border" aria-hidden="true" />;
}

function Tool({
  label,
  active,
  disabled,
  onClick,
  children,
}: {
  label: string;
  active?: boolean;
  disabled?: boolean;
  onClick: () => void;
  children: React.ReactNode;
}) {
  return (
    <button
      type="button"
      title={label}
      aria-label={label}
      aria-pressed={active === undefined ? undefined : active}
      disabled={disabled}
      onMouseDown={(e) => e.preventDefault()}
      onClick={onClick}
      className={cn(
        "grid size-8 cursor-pointer place-items-center rounded-md text-muted-foreground transition-colors hover:bg-accent hover:text-accent-foreground focus-visible:ring-2 focus-visible:ring-ring disabled:cursor-not-allowed disabled:opacity-40 [&_svg]:size-4",
        active && "bg-accent text-accent-foreground",
      )}
    >
      {children}
    </button>
  );
}

/** Link: removes the link under the cursor, or asks for an address in a small popover. */
function LinkTool({ editor, active, disabled }: { editor: EditorT; active: boolean; disabled?: boolean }) {
  const [open, setOpen] = React.useState(false);
  const [href, setHref] = React.useState("");
  const inputId = React.useId();
  function apply() {
    const url = href.trim();
    const chain = editor.chain().focus().extendMarkRange("link");
    if (url) chain.setLink({ href: /^[a-z][a-z0-9+.-]*:/i.test(url) ? url : `https://${url}` }).run();
    else chain.unsetLink().run();
    setOpen(false);
  }
  return (
    <Popover open={open} onOpenChange={setOpen}>
      <PopoverAnchor asChild>
        <span className="inline-flex">
          <Tool
            label={active ? "Remove link" : "Link"}
            active={active}
            disabled={disabled}
            onClick={() => {
              if (active) {
                editor.chain().focus().extendMarkRange("link").unsetLink().run();
                return;
              }
              setHref(String(editor.getAttributes("link").href ?? ""));
              setOpen(true);
            }}
          >
            <Link2 />
          </Tool>
        </span>
      </PopoverAnchor>
      <PopoverContent className="flex w-80 flex-col gap-2">
        <label htmlFor={inputId} className="text-sm font-medium">Link address</label>
        <Input
          id={inputId}
          value={href}
          placeholder="https://"
          autoFocus
          onChange={(e) => setHref(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === "Enter") {
              e.preventDefault();
              apply();
            }
          }}
        />
        <div className="flex justify-end gap-2">
          <Button type="button" variant="ghost" size="sm" onClick={() => setOpen(false)}>Cancel</Button>
          <Button type="button" size="sm" onClick={apply}>Apply</Button>
        </div>
      </PopoverContent>
    </Popover>
  );
}
