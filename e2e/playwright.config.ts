import { defineConfig } from '@playwright/test';
import { join } from 'node:path';

const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export default defineConfig({
  testDir: './tests',
  globalSetup: './support/global-setup.ts',
  // Two cores: one browser and one server per test at a time keeps timings honest.
  workers: 1,
  fullyParallel: false,
  retries: process.env.CI ? 1 : 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [['list'], ['json', { outputFile: join(import.meta.dirname, '..', 'test-results', 'e2e.json') }]],
  outputDir: join(import.meta.dirname, '..', 'test-results', 'e2e'),
  use: {
    browserName: 'chromium',
    launchOptions: { executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_FLAGS },
    locale: 'en-US',
    trace: 'retain-on-failure',
  },
});
