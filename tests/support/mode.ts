import { afterAll } from 'vitest';
import { createCorridor, type CorridorInstance } from '@/lib/boot';
import { currentCorridor, setAppCorridor } from '@/lib/core/context';

// The mode is fixed when an instance is built: a test that needs the other mode switches the
// test process's app handle to an instance of that mode (built once per test file, on the same
// database client) and back.
const instances = new Map<string, CorridorInstance>();
let original: ReturnType<typeof currentCorridor> | undefined;

export function switchMode(mode: 'sandbox' | 'production'): void {
  original ??= currentCorridor();
  if (original.config.mode === mode) return setAppCorridor(original);
  let instance = instances.get(mode);
  if (!instance) instances.set(mode, (instance = createCorridor({ mode, database: original.database })));
  setAppCorridor(instance);
}

afterAll(async () => {
  if (original) setAppCorridor(original);
  for (const instance of instances.values()) await instance.close();
  instances.clear();
});
