/**
 * The table primitives (shadcn's names and parts: Table, TableHeader, TableBody, TableFooter,
 * TableRow, TableHead, TableCell, TableCaption), each the plain element with a `data-slot` naming
 * its part and the caller's classes. They carry no look of their own: the looks live where tables
 * are declared (StaticTable's looks, the data grid's styles), so a table keeps exactly the classes
 * it is given.
 */
import type * as React from "react";

export function Table({ className, ...props }: React.ComponentProps<"table">) {
  return <table data-slot="table" className={className} {...props} />;
}

export function TableHeader({ className, ...props }: React.ComponentProps<"thead">) {
  return <thead data-slot="table-header" className={className} {...props} />;
}

export function TableBody({ className, ...props }: React.ComponentProps<"tbody">) {
  return <tbody data-slot="table-body" className={className} {...props} />;
}

export function TableFooter({ className, ...props }: React.ComponentProps<"tfoot">) {
  return <tfoot data-slot="table-footer" className={className} {...props} />;
}

export function TableRow({ className, ...props }: React.ComponentProps<"tr">) {
  return <tr data-slot="table-row" className={className} {...props} />;
}

export function TableHead({ className, ...props }: React.ComponentProps<"th">) {
  return <th data-slot="table-head" className={className} {...props} />;
}

export function TableCell({ className, ...props }: React.ComponentProps<"td">) {
  return <td data-slot="table-cell" className={className} {...props} />;
}

export function TableCaption({ className, ...props }: React.ComponentProps<"caption">) {
  return <caption data-slot="table-caption" className={className} {...props} />;
}
