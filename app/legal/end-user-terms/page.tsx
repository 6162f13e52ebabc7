// The End User Terms that customers accept (version V1), linked from GET /customers/end-user-terms.
export default function EndUserTerms() {
  return (
    <main className="mx-auto max-w-2xl px-6 py-16">
      <h1 className="text-2xl font-semibold">End User Terms — version V1</h1>
      <p className="mt-4 text-slate-700">
        These terms govern the use of payment accounts provided through this Corridor installation. The operator of this
        installation replaces this text with its own terms before accepting real customers.
      </p>
    </main>
  );
}
