import { defineConfig } from '@playwright/test';

// Run by e2e/browser.e2e.mjs, which builds, starts a server and passes its URL (E2E_BASE_URL).
// Debian's Chromium, never a browser Playwright downloads. Playwright empties its outputDir at the
// start of a run, so it gets a folder of its own; the JSON report (the count npm test's summary
// reads) goes where browser.e2e.mjs says (E2E_REPORT_FILE), outside that folder.
const report = process.env.E2E_REPORT_FILE;
export default defineConfig({
  testDir: '.',
  testMatch: /.*\.spec\.ts$/,
  workers: 1,
  fullyParallel: false,
  retries: 0,
  timeout: 180_000,
  expect: { timeout: 15_000 },
  reporter: report ? [['list'], ['json', { outputFile: report }]] : [['list']],
  outputDir: '../test-results/playwright',
  use: {
    baseURL: process.env.E2E_BASE_URL,
    launchOptions: {
      executablePath: '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
    screenshot: 'only-on-failure',
    trace: 'off',
  },
});
