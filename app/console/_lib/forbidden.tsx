import type { StaffRole } from '@/lib/staff/roles';
import { PageHeader } from '@/components/ui';

export function Forbidden({ title, role }: { title: string; role: StaffRole }) {
  return (
    <>
      <PageHeader title={title} />
      <p role="alert" className="rounded border border-amber-300 bg-amber-50 p-4 text-sm text-amber-950">
        This page needs the {role} role. Ask an admin of the console if you need it.
      </p>
    </>
  );
}
