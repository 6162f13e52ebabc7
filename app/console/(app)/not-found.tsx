import Link from 'next/link';

export default function ConsoleNotFound() {
  return (
    <div className="rounded border border-slate-300 bg-white p-4">
      <h1 className="text-lg font-semibold">Not found</h1>
      <p className="mt-1 text-sm">There is no such record on this platform.</p>
      <Link href="/console" className="mt-2 inline-block text-sm text-blue-800 underline">
        Back to the overview
      </Link>
    </div>
  );
}
