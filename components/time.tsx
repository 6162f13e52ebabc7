'use client';
import { useEffect, useState } from 'react';

// A time shown in the viewer's own time zone. The server cannot know that zone, so the first
// render (on the server and at hydration) shows UTC, and the browser then rewrites it locally.
const utc = new Intl.DateTimeFormat('en-GB', {
  dateStyle: 'medium',
  timeStyle: 'medium',
  timeZone: 'UTC',
});

export function LocalTime({ value }: { value: string | Date | null | undefined }) {
  const iso = value ? new Date(value).toISOString() : null;
  const [text, setText] = useState(() => (iso ? `${utc.format(new Date(iso))} UTC` : '—'));
  useEffect(() => {
    if (!iso) return;
    const local = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'medium' });
    // eslint-disable-next-line react-hooks/set-state-in-effect -- the zone is known only in the browser
    setText(local.format(new Date(iso)));
  }, [iso]);
  if (!iso) return <span>—</span>;
  return (
    <time dateTime={iso} title={iso}>
      {text}
    </time>
  );
}
