import { kysely } from './kysely';

// A typed statement of a fixed shape, compiled once. Kysely type-checks the statement against the
// generated `DB` (a renamed column fails tsc), but compiling its tree costs CPU on every call
// (measured ~0.6 ms per payment flow across its statements). For statements whose text never
// changes, `prepared` builds the tree once with placeholders standing for the values, compiles it
// once on first use, and afterwards only puts each call's values where the placeholders were.

/** Stands for a named value in the statement until a call gives it. */
class Placeholder {
  constructor(readonly name: string) {}
}

interface Compiled {
  sql: string;
  /** Per parameter: the name of the call's value it takes, or the constant the statement holds. */
  slots: readonly ({ name: string } | { constant: unknown })[];
}

type Compilable = { compile(provider: typeof kysely): { sql: string; parameters: readonly unknown[] } };

/**
 * `build(p)` writes the statement with `p.<name>` where a call's value goes (typed as `P` says);
 * the result is called with those values and gives a statement for queryIn / queryDirect. Values
 * are placed as whole parameters: use `= any(${p.ids})` for lists, not `in` (Kysely expands an
 * array given to `in` into one parameter per element, which a fixed text cannot do).
 */
export function prepared<P extends Record<string, unknown>>(build: (p: P) => Compilable): (values: P) => Compilable {
  let compiled: Compiled | undefined;
  const compileOnce = (): Compiled => {
    if (compiled) return compiled;
    const names = new Set<string>();
    const p = new Proxy({} as P, {
      get: (_t, name) => {
        if (typeof name !== 'string') return undefined;
        names.add(name);
        return new Placeholder(name);
      },
    });
    const { sql, parameters } = build(p).compile(kysely);
    const slots = parameters.map((v) => (v instanceof Placeholder ? { name: v.name } : { constant: v }));
    // A placeholder Kysely turned into something else (spread into a list, wrapped in JSON) would
    // silently send the wrong value: refuse the statement as written.
    const placed = new Set(slots.flatMap((s) => ('name' in s ? [s.name] : [])));
    for (const n of names)
      if (!placed.has(n)) throw new Error(`prepared statement: ${n} is not a parameter of its own (${sql})`);
    compiled = { sql, slots };
    return compiled;
  };
  return (values) => ({
    compile: () => {
      const { sql, slots } = compileOnce();
      return { sql, parameters: slots.map((s) => ('name' in s ? values[s.name] : s.constant)) };
    },
  });
}
