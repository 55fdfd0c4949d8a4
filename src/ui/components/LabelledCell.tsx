import type { ReactNode } from 'react';
import { cellLabel } from './table.css.ts';

/**
 * A table cell that names its column before its value where the table is shown as cards (a phone,
 * see table.css.ts `stacked`); elsewhere the name is hidden and the header says it. The name is
 * hidden from screen readers, which read the column header.
 */
export function LabelledCell({ label, className, children }: { label: string; className?: string; children?: ReactNode }) {
  return (
    <td className={className} data-label={label}>
      <span className={cellLabel} aria-hidden="true">
        {label}
      </span>
      <span>{children}</span>
    </td>
  );
}
