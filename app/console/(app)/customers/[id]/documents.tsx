/* eslint-disable @next/next/no-img-element -- previews of private files behind the staff session, not optimizable assets */
import { LocalTime } from '@/components/time';
import { Empty } from '@/components/ui';

export interface Doc {
  id: string;
  documentType: string;
  documentHolder: string;
  side?: string;
  country: string;
  fileName: string;
  contentType: string;
  size: number;
  submitted: boolean;
  createdAt: Date;
}

// Documents previewed inline, images and PDFs alike (served by /console/documents/[id] to staff,
// framable by this site only: proxy.ts), each with a link to open it whole in a new tab.
function Preview({ doc, href, holderName }: { doc: Doc; href: string; holderName: string }) {
  const what = `${doc.documentType}${doc.side ? ` ${doc.side.toLowerCase()}` : ''} of ${holderName}`;
  if (doc.contentType.startsWith('image/'))
    return <img src={href} alt={what} className="mb-2 h-48 w-full rounded bg-slate-100 object-contain" />;
  if (doc.contentType === 'application/pdf')
    return <iframe src={href} title={what} className="mb-2 h-64 w-full rounded border border-slate-200 bg-slate-100" />;
  return null;
}

export function DocumentList({ docs, holderName }: { docs: Doc[]; holderName: string }) {
  if (!docs.length) return <Empty>No documents uploaded.</Empty>;
  return (
    <ul className="grid grid-cols-1 gap-4 sm:grid-cols-2 xl:grid-cols-3">
      {docs.map((doc) => {
        const href = `/console/documents/${encodeURIComponent(doc.id)}`;
        return (
          <li key={doc.id} className="min-w-0 rounded border border-slate-200 p-3 text-sm">
            <Preview doc={doc} href={href} holderName={holderName} />
            <p className="font-medium">
              {doc.documentType}
              {doc.side ? ` · ${doc.side}` : ''} · {doc.country}
            </p>
            <p className="break-words text-slate-700">
              {doc.fileName}, {Math.ceil(doc.size / 1024)} KiB{doc.submitted ? ', submitted as evidence' : ''}
            </p>
            <p className="text-slate-700">
              Uploaded <LocalTime value={doc.createdAt} />
            </p>
            <a href={href} target="_blank" rel="noopener" className="text-blue-800 underline">
              Open {doc.fileName}
            </a>
          </li>
        );
      })}
    </ul>
  );
}
