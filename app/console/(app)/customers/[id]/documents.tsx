/* eslint-disable @next/next/no-img-element -- previews of private files behind the staff session, not optimizable assets */
import { LocalTime } from '@/components/time';
import { Empty } from '@/components/ui';

interface Doc {
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

// A customer's documents with a preview: images inline, PDFs opened in a new tab.
export function DocumentList({ docs }: { docs: Doc[] }) {
  if (!docs.length) return <Empty>No documents uploaded.</Empty>;
  return (
    <ul className="grid grid-cols-1 gap-4 sm:grid-cols-2 xl:grid-cols-3">
      {docs.map((doc) => {
        const href = `/console/documents/${encodeURIComponent(doc.id)}`;
        return (
          <li key={doc.id} className="rounded border border-slate-200 p-3 text-sm">
            {doc.contentType.startsWith('image/') ? (
              <a href={href} target="_blank" rel="noopener">
                <img
                  src={href}
                  alt={`${doc.documentType} ${doc.side ?? ''} (${doc.fileName})`}
                  className="mb-2 h-40 w-full rounded bg-slate-100 object-contain"
                />
              </a>
            ) : (
              <a href={href} target="_blank" rel="noopener" className="mb-2 block text-blue-800 underline">
                Open {doc.fileName} (PDF)
              </a>
            )}
            <p className="font-medium">
              {doc.documentType}
              {doc.side ? ` · ${doc.side}` : ''} · {doc.country}
            </p>
            <p className="break-words text-slate-700">
              {doc.fileName}, {Math.ceil(doc.size / 1024)} KiB{doc.submitted ? ', submitted as evidence' : ''}
            </p>
            <p className="text-slate-700">
              Holder <span className="font-mono text-xs">{doc.documentHolder}</span>
            </p>
            <p className="text-slate-700">
              Uploaded <LocalTime value={doc.createdAt} />
            </p>
          </li>
        );
      })}
    </ul>
  );
}
