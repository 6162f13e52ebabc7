// Everything the soak starts, it stops: its server's process group and its scratch database (or
// data directory) — after a normal run, a violation, a failure, an uncaught exception, and on
// Ctrl-C / SIGTERM / SIGHUP. Steps run once, newest first; a step that fails is reported and the
// others still run. Whatever did not finish when the process exits anyway (a second Ctrl-C, an
// exit from elsewhere) gets its synchronous last resort from the exit hook.

const SIGNAL_EXIT = { SIGINT: 130, SIGTERM: 143, SIGHUP: 129 };

export class Teardown {
  constructor(log) {
    this.log = log;
    this.steps = [];
    this.running = null;
    this.signal = null;
  }

  /** `run` awaited by `teardown()`; `sync` (no awaiting) by the exit hook if `run` did not finish. */
  add(name, run, sync) {
    this.steps.push({ name, run, sync, done: false });
  }

  /** Runs every step once (concurrent callers share the one run). */
  teardown() {
    this.running ??= (async () => {
      for (const step of [...this.steps].reverse()) {
        try {
          await step.run();
          step.done = true;
        } catch (err) {
          console.error(`[soak] cleanup: ${step.name} failed: ${err.message}`);
        }
      }
    })();
    return this.running;
  }

  /** Tears down, then exits with `code`. */
  exit(code) {
    this.teardown().finally(() => process.exit(code));
  }

  /** Signal, exception and exit hooks. */
  install() {
    for (const signal of Object.keys(SIGNAL_EXIT)) {
      process.on(signal, () => {
        if (this.signal) {
          // A second signal: no more waiting (the exit hook still kills and drops synchronously).
          process.exit(SIGNAL_EXIT[signal]);
        }
        this.signal = signal;
        this.log(`${signal}: stopping the server and removing the scratch database (again to force)`);
        this.exit(SIGNAL_EXIT[signal]);
      });
    }
    const fatal = (kind) => (err) => {
      console.error(`[soak] ${kind}: ${err?.stack ?? err}`);
      this.exit(2);
    };
    process.on('uncaughtException', fatal('uncaught exception'));
    process.on('unhandledRejection', fatal('unhandled rejection'));
    process.on('exit', () => {
      for (const step of [...this.steps].reverse()) {
        if (step.done || !step.sync) continue;
        try {
          step.sync();
        } catch (err) {
          console.error(`[soak] last-resort cleanup: ${step.name} failed: ${err.message}`);
        }
      }
    });
  }
}
