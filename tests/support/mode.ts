import { afterAll } from 'vitest';
import { createCorridor, type CorridorInstance } from '@/lib/boot';
import { currentCorridor, setAppCorridor } from '@/lib/core/context';
import { plug } from '@/lib/core/ports';
import { developmentSender, messageSender } from '@/lib/notify/sender';
import { ratesSource } from '@/lib/fx/rates';
import { sandboxRates } from '@/lib/fx/sandbox-rates';

// The mode is fixed when an instance is built: a test that needs the other mode switches the
// test process's app handle to an instance of that mode (built once per test file, on the same
// database client) and back. Its production instance stands the development outbox in for the
// email and SMS providers (a production instance without them refuses codes: lib/notify), so
// tests read the codes production flows send, and the sandbox's rate table in for a rates
// provider (one without refuses every quote: lib/fx/rates.ts), so production flows price at the
// figures the tests compute with. lib/fx/rates-http.test.ts covers the real provider and the
// refusal.
const instances = new Map<string, CorridorInstance>();
let original: ReturnType<typeof currentCorridor> | undefined;

export function switchMode(mode: 'sandbox' | 'production'): void {
  original ??= currentCorridor();
  if (original.config.mode === mode) return setAppCorridor(original);
  let instance = instances.get(mode);
  if (!instance)
    instances.set(
      mode,
      (instance = createCorridor({
        mode,
        database: original.database,
        ports: mode === 'production' ? [plug(messageSender, developmentSender), plug(ratesSource, sandboxRates)] : [],
      })),
    );
  setAppCorridor(instance);
}

afterAll(async () => {
  if (original) setAppCorridor(original);
  for (const instance of instances.values()) await instance.close();
  instances.clear();
});
