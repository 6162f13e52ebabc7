// Stands in for 'server-only' under vitest (Next.js resolves it itself in the app): importing it marks a module as server code.
export {};
