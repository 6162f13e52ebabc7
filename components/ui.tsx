import { Children, cloneElement, Fragment, isValidElement, type ReactNode } from 'react';
import { statusTone } from './format';

// Small presentational pieces shared by the console and the wallet (no state, server-safe).
export function PageHeader({
  title,
  description,
  actions,
}: {
  title: string;
  description?: ReactNode;
  actions?: ReactNode;
}) {
  return (
    <div className="mb-6 flex flex-wrap items-start justify-between gap-4">
      <div className="min-w-0">
        <h1 className="text-2xl font-semibold break-words">{title}</h1>
        {description ? <p className="mt-1 text-sm text-slate-700">{description}</p> : null}
      </div>
      {actions ? <div className="flex flex-wrap gap-2">{actions}</div> : null}
    </div>
  );
}

export function Section({ title, children, actions }: { title: string; children: ReactNode; actions?: ReactNode }) {
  return (
    <section className="mb-6 rounded-lg border border-slate-200 bg-white p-4 shadow-sm" aria-label={title}>
      <div className="mb-3 flex flex-wrap items-center justify-between gap-2">
        <h2 className="text-lg font-semibold">{title}</h2>
        {actions}
      </div>
      {children}
    </section>
  );
}

export function Badge({ status }: { status: string | null | undefined }) {
  return (
    <span className={`inline-block rounded px-2 py-0.5 text-xs font-medium whitespace-nowrap ${statusTone(status)}`}>
      {status ?? '—'}
    </span>
  );
}

export function Empty({ children }: { children: ReactNode }) {
  return (
    <p className="rounded border border-dashed border-slate-300 p-6 text-center text-sm text-slate-700">{children}</p>
  );
}

export function ErrorNote({ children }: { children: ReactNode }) {
  return (
    <p role="alert" className="rounded border border-red-300 bg-red-50 p-3 text-sm text-red-900">
      {children}
    </p>
  );
}

/** A definition list of label/value pairs. */
export function Facts({ items }: { items: [string, ReactNode][] }) {
  return (
    <dl className="grid grid-cols-1 gap-x-6 gap-y-2 text-sm sm:grid-cols-[max-content_1fr]">
      {items.map(([label, value]) => (
        <div key={label} className="contents">
          <dt className="font-medium text-slate-700">{label}</dt>
          <dd className="min-w-0 break-words">{value ?? '—'}</dd>
        </div>
      ))}
    </dl>
  );
}

/**
 * A table at 768 px and wider (cells wrap; it scrolls inside its box only if it must); below that
 * each row is a card of "label value" lines, so a phone shows every cell (status and amount
 * included) without scrolling sideways. Each cell gets its
 * column's header as data-label, which the stacked cell shows through ::before (app/globals.css);
 * the Content-Security-Policy allows no inline style, so the labels cannot travel as CSS variables.
 */
export function Table({ caption, head, children }: { caption: string; head: string[]; children: ReactNode }) {
  return (
    <div className="md:overflow-x-auto">
      <table className="stack w-full border-collapse text-left text-sm">
        <caption className="sr-only">{caption}</caption>
        <thead>
          <tr className="border-b border-slate-300 text-slate-700">
            {head.map((h) => (
              <th key={h} scope="col" className="px-2 py-2 font-medium">
                {h}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>{labelled(children, head)}</tbody>
      </table>
    </div>
  );
}

type Props = { children?: ReactNode; 'data-label'?: string };

/** The rows with each cell labelled by its column (rows inside fragments included). */
function labelled(rows: ReactNode, head: string[]): ReactNode {
  return Children.map(rows, (row) => {
    if (!isValidElement<Props>(row)) return row;
    if (row.type === Fragment) return cloneElement(row, {}, labelled(row.props.children, head));
    if (row.type !== 'tr') return row;
    let column = 0;
    const cells = Children.map(row.props.children, (cell) =>
      isValidElement<Props>(cell) ? cloneElement(cell, { 'data-label': head[column++] ?? '' }) : cell,
    );
    return cloneElement(row, {}, cells);
  });
}

export function Cell({ children, mono, ...rest }: { children: ReactNode; mono?: boolean; 'data-label'?: string }) {
  return (
    <td
      data-label={rest['data-label']}
      className={`border-b border-slate-100 px-2 py-2 align-top ${mono ? 'font-mono text-xs' : ''}`}
    >
      {children}
    </td>
  );
}
