'use client';

/**
 * The reason a staff decision keeps (rejecting an agent action, recording a refund made outside
 * Corridor): required, bounded as the server bounds it, labelled with where it is kept.
 */
export function ReasonField({
  id,
  label,
  value,
  onChange,
  rows,
  className = '',
}: {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  rows: number;
  /** Extra classes of the label (its spacing in the form around it). */
  className?: string;
}) {
  return (
    <>
      <label htmlFor={id} className={`block font-medium ${className}`}>
        {label}
      </label>
      <textarea
        id={id}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        required
        maxLength={1000}
        rows={rows}
        className="mt-1 w-full rounded border border-slate-400 px-2 py-1.5"
      />
    </>
  );
}
