const BASE = '/api/2025-10-13';

// The landing page: where the API and its document live.
export default function Home() {
  return (
    <main className="mx-auto max-w-2xl px-6 py-16">
      <h1 className="text-3xl font-semibold">Corridor</h1>
      <p className="mt-2 text-slate-600">Self-hostable global payments service, interface version 2025-10-13.</p>
      <ul className="mt-8 space-y-2">
        <li>
          API base: <code className="rounded bg-slate-200 px-1">{BASE}</code>
        </li>
        <li>
          OpenAPI document:{' '}
          <a className="text-blue-700 underline" href={`${BASE}/openapi.json`}>
            {BASE}/openapi.json
          </a>
        </li>
      </ul>
    </main>
  );
}
