import { DomainError } from './errors';
import { isSandbox } from './mode';

/**
 * The refusal of a sandbox operation (a simulation, the sandbox clock) outside sandbox mode:
 * production never pretends. The API edge refuses such routes first with the same error
 * (lib/http/endpoint.ts `sandboxOnly`); commands check again since any surface may run them.
 */
export function requireSandbox(): void {
  if (!isSandbox()) throw new DomainError('FORBIDDEN', 'Sandbox endpoints are not available in production mode');
}
