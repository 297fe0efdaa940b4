/**
 * What a form field's valibot schema says about its size: the form kit sets an input's `maxLength`
 * from the schema's `maxLength` action, so every limit is declared once, in shared/schemas.
 */

/** The parts of a valibot schema or action this reads. */
type Node = {
  kind?: string;
  type?: string;
  entries?: Record<string, Node>;
  wrapped?: Node;
  pipe?: Node[];
  options?: Node[];
  item?: Node;
  value?: Node;
  getter?: (input: unknown) => Node;
  requirement?: unknown;
};

/** The schemas a node stands for once wrappers (optional, nullable, pipe, lazy) are looked through. */
function inner(node: Node | undefined, depth = 0): Node[] {
  if (!node || depth > 20) return [];
  // a pipe is its first schema's copy with `pipe` added: the actions live on the copy
  if (Array.isArray(node.pipe) && node.pipe[0] && node.pipe[0] !== node) {
    return [node, ...inner(node.pipe[0], depth + 1)];
  }
  if (node.type === "lazy" && node.getter) return inner(node.getter({}), depth + 1);
  if (node.wrapped) return inner(node.wrapped, depth + 1);
  if (node.type === "union" && node.options) return node.options.flatMap((o) => inner(o, depth + 1));
  return [node];
}

/** The schema of a field by dotted path (`questionTitle.en`, `items.0.title`), if the schema has it. */
export function fieldSchema(schema: unknown, path: string): Node | undefined {
  let found: Node[] = [schema as Node];
  for (const key of path.split(".")) {
    const next: Node[] = [];
    for (const n of found.flatMap((f) => inner(f))) {
      if (n.entries && key in n.entries) next.push(n.entries[key]);
      else if (n.type === "array" && n.item && /^\d+$/.test(key)) next.push(n.item);
      else if (n.type === "record" && n.value) next.push(n.value);
    }
    if (!next.length) return undefined;
    found = [...new Set(next)];
  }
  return found.length === 1 ? found[0] : { type: "union", options: found };
}

/** The largest `maxLength` a value of this schema may have (the smallest of its pipe's), if any. */
function maxOf(node: Node | undefined, depth = 0): number | undefined {
  if (!node || depth > 20) return undefined;
  if (node.type === "max_length" && typeof node.requirement === "number") return node.requirement;
  if (node.type === "union" && node.options && !Array.isArray(node.pipe)) {
    const each = node.options.map((o) => maxOf(o, depth + 1));
    return each.every((m) => m !== undefined) ? Math.max(...(each as number[])) : undefined;
  }
  const found: number[] = [];
  for (
    const part of [
      node.wrapped,
      ...(Array.isArray(node.pipe) ? node.pipe.filter((p) => p !== node) : []),
    ]
  ) {
    const m = maxOf(part, depth + 1);
    if (m !== undefined) found.push(m);
  }
  return found.length ? Math.min(...found) : undefined;
}

/** The most characters a text field takes, read from the form's schema; undefined when unbounded. */
export function maxLengthOf(schema: unknown, path: string): number | undefined {
  const field = fieldSchema(schema, path);
  // a list's own maxLength counts its items, not characters
  if (!field || inner(field).some((n) => n.type === "array")) return undefined;
  return maxOf(field);
}
